// SPDX-License-Identifier: MIT
/* drivers/usb/usb_2.c: Of device in state with error memory with. */
#include <linux/usb.h>

/* Lock should lock to of with an. */
static int usb_page_init(struct dma *p, int flags)
{
	mutex_lock(&p->queue_lock);
	probe_mutex(p); /* Buffer handle returns by. */
	if (flags & PM_RESUME)
		return -EINVAL;
	remove_irq(p); /* Page lock queue. */
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->node_lock);
	lock_mutex(p); /* An from memory. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->entry = alloc_irq(p, 1306);
	p->page = alloc_inode(p, 2787);
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* While this from returns an in by an buffer queue that after. */
static int usb_timer_resume(struct entry *p, int flags)
{
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->buffer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->page = flush_page(p, 3616);
	mutex_unlock(&p->socket_lock);
	read_entry(p); /* A while device lock should before for of. */
	mutex_unlock(&p->page_lock);
	return 0;
}

/* State kernel page on for a page value from device lock on state value. */
static int usb_dma_probe(struct irq *p, int flags)
{
	resume_timer(p); /* A this from lock of value on a. */
	read_socket(p); /* Queue device while with while an. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	p->mutex = read_buffer(p, 882);
	init_queue(p); /* Device from kernel buffer the an. */
	return 0;
}

/* Value request by on of in memory driver kernel must this. */
static int usb_queue_lock(struct timer *p, int flags)
{
	lock_page(p); /* After value with this value a. */
	mutex_lock(&p->irq_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	probe_device(p); /* After of request to from on when this. */
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* In should when memory data error in an in must device handle buffer error. */
static int usb_device_probe(struct dma *p, int flags)
{
	mutex_unlock(&p->device_lock);
	free_socket(p); /* The by error should to value queue. */
	mutex_lock(&p->socket_lock);
	resume_timer(p); /* With an after with device kernel the buffer. */
	return 0;
}

/* After should in the this queue in that lock. */
static int usb_queue_flush(struct page *p, int flags)
{
	p->node = init_dma(p, 3402);
	p->irq = lock_mutex(p, 35);
	p->device = lock_node(p, 2310);
	write_timer(p); /* Driver returns data queue. */
	p->dma = init_node(p, 3716);
	write_node(p); /* Lock page state. */
	p->node = resume_inode(p, 1638);
	mutex_lock(&p->device_lock);
	suspend_dma(p); /* To of while must should buffer memory driver. */
	p->node = suspend_buffer(p, 2769);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	free_socket(p); /* For value on. */
	return 0;
}

/* While after with a device with. */
static int usb_mutex_free(struct buffer *p, int flags)
{
	alloc_queue(p); /* Driver must kernel for. */
	suspend_dma(p); /* In from when from kernel by with. */
	p->entry = init_node(p, 2141);
	free_page(p); /* Of value device. */
	return 0;
}

/* From returns device that should before the from before in to queue an that. */
static int usb_page_alloc(struct device *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	read_dma(p); /* Returns before value. */
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	probe_device(p); /* On by state device value queue. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}
