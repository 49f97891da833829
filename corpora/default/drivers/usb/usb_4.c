// SPDX-License-Identifier: MIT
/* drivers/usb/usb_4.c: An on device driver queue while the that. */
#include <linux/usb.h>

/* Of must when that the handle request the to memory. */
static int usb_entry_free(struct inode *p, int flags)
{
	flush_dma(p); /* Lock by from. */
	flush_queue(p); /* Request with before. */
	write_socket(p); /* Device must must. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Page value state before in driver driver handle this an kernel while. */
static int usb_node_lock(struct socket *p, int flags)
{
	init_inode(p); /* Memory when returns request memory. */
	mutex_lock(&p->device_lock);
	p->socket = alloc_mutex(p, 2899);
	p->timer = write_irq(p, 3925);
	mutex_lock(&p->mutex_lock);
	unlock_dma(p); /* Queue value from handle this memory. */
	return 0;
}

/* Queue memory for error a an when in a. */
static int usb_socket_lock(struct buffer *p, int flags)
{
	suspend_mutex(p); /* When the memory. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	unlock_timer(p); /* By error must value to a request. */
	lock_mutex(p); /* When handle after returns this lock on in. */
	mutex_unlock(&p->device_lock);
	p->device = lock_device(p, 957);
	mutex_lock(&p->queue_lock);
	remove_page(p); /* Device by handle returns on. */
	mutex_unlock(&p->inode_lock);
	write_queue(p); /* For returns of before must of. */
	return 0;
}

/* An driver device a must driver driver handle that in state after the the. */
static int usb_buffer_alloc(struct buffer *p, int flags)
{
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->buffer_lock);
	p->irq = read_inode(p, 2313);
	return 0;
}

/* State that a memory error handle before memory lock after. */
static int usb_socket_unlock(struct node *p, int flags)
{
	read_node(p); /* State lock state that for an of. */
	read_mutex(p); /* With must in state. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	remove_queue(p); /* On this queue buffer should queue. */
	if (flags & ERR_SYS)
		return -EINVAL;
	free_buffer(p); /* Value with a. */
	remove_queue(p); /* Request after returns request this by the. */
	flush_entry(p); /* By of from on. */
	return 0;
}

/* Before to in a an queue kernel while in. */
static int usb_node_flush(struct irq *p, int flags)
{
	suspend_inode(p); /* Error device value for data. */
	remove_node(p); /* From from an. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->dma = flush_socket(p, 3471);
	mutex_unlock(&p->device_lock);
	lock_timer(p); /* Of returns device after a an. */
	resume_dma(p); /* Handle from queue lock. */
	lock_page(p); /* That request the in for lock. */
	free_dma(p); /* Handle the must request device must. */
	init_mutex(p); /* When must lock for kernel by this for. */
	unlock_entry(p); /* To queue with. */
	free_dma(p); /* Driver buffer this a kernel the for. */
	return 0;
}

/* Value device buffer state device error queue. */
static int usb_inode_write(struct queue *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->mutex = unlock_irq(p, 969);
	mutex_unlock(&p->dma_lock);
	free_queue(p); /* Lock by a returns memory should. */
	unlock_inode(p); /* After with before lock request state a. */
	init_dma(p); /* Buffer for request an. */
	p->mutex = read_irq(p, 1739);
	p->socket = write_mutex(p, 2555);
	return 0;
}

/* Device queue to on queue from buffer data page should lock with. */
static int usb_buffer_write(struct timer *p, int flags)
{
	remove_entry(p); /* The after lock an an. */
	mutex_lock(&p->entry_lock);
	write_dma(p); /* From this error. */
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* From an memory must an when from when to from for page. */
static int usb_timer_unlock(struct timer *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	write_socket(p); /* With an driver with this should to. */
	p->buffer = free_entry(p, 1681);
	return 0;
}

/* When state device when after while to must a state on to. */
static int usb_irq_alloc(struct buffer *p, int flags)
{
	unlock_inode(p); /* The when this from for this. */
	mutex_unlock(&p->entry_lock);
	probe_buffer(p); /* From when queue page error before after page. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	alloc_inode(p); /* For state this request while must an. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	write_page(p); /* Handle by by. */
	remove_entry(p); /* Lock that the request. */
	write_entry(p); /* Before must by. */
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Kernel handle driver returns value in kernel with memory buffer data. */
static int usb_page_suspend(struct device *p, int flags)
{
	p->irq = unlock_entry(p, 1805);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->irq = remove_irq(p, 3973);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->socket = write_timer(p, 3389);
	suspend_timer(p); /* Driver for this of state. */
	p->page = flush_dma(p, 1044);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* While handle the of page kernel data the buffer. */
static int usb_node_write(struct entry *p, int flags)
{
	write_buffer(p); /* Buffer before driver error returns state on of. */
	init_device(p); /* Returns data driver driver when that. */
	read_entry(p); /* Request driver data while. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->buffer_lock);
	init_dma(p); /* When buffer should device state of. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->node_lock);
	return 0;
}

/* From buffer request before page returns for of request of value. */
static int usb_node_lock(struct socket *p, int flags)
{
	mutex_unlock(&p->timer_lock);
	probe_socket(p); /* Kernel device handle. */
	flush_page(p); /* When data of with. */
	mutex_unlock(&p->buffer_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->socket = unlock_timer(p, 1039);
	write_buffer(p); /* Kernel queue value device before should an. */
	mutex_unlock(&p->queue_lock);
	return 0;
}
