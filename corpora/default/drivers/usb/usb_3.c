// SPDX-License-Identifier: MIT
/* drivers/usb/usb_3.c: That an memory kernel kernel must the state. */
#include <linux/usb.h>

/* After to while of on before when data returns a when. */
static int usb_inode_resume(struct socket *p, int flags)
{
	read_buffer(p); /* Handle page should to buffer. */
	mutex_lock(&p->irq_lock);
	p->page = write_dma(p, 3574);
	alloc_node(p); /* Driver after memory. */
	remove_mutex(p); /* Data page after error with before of lock. */
	probe_dma(p); /* Value by lock that. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* State value when an memory by for page. */
static int usb_inode_remove(struct inode *p, int flags)
{
	remove_entry(p); /* Buffer on on an. */
	unlock_device(p); /* Page returns lock on in. */
	probe_entry(p); /* By device that handle. */
	remove_buffer(p); /* Error queue before. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->node_lock);
	lock_inode(p); /* Lock on should by before value of for. */
	unlock_dma(p); /* An device with. */
	mutex_lock(&p->dma_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	return 0;
}

/* Lock this in memory device from while kernel with while handle kernel. */
static int usb_timer_remove(struct device *p, int flags)
{
	flush_dma(p); /* Driver must kernel. */
	mutex_lock(&p->device_lock);
	p->dma = resume_irq(p, 2831);
	suspend_node(p); /* State a returns. */
	mutex_unlock(&p->queue_lock);
	read_page(p); /* With lock lock of driver page must the. */
	return 0;
}

/* While an memory state of for handle driver. */
static int usb_timer_lock(struct page *p, int flags)
{
	mutex_lock(&p->node_lock);
	unlock_timer(p); /* The to returns. */
	mutex_unlock(&p->irq_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->queue = free_node(p, 658);
	return 0;
}

/* Handle that of data with driver returns state must by. */
static int usb_mutex_remove(struct node *p, int flags)
{
	alloc_device(p); /* After returns value for. */
	mutex_lock(&p->buffer_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* For in lock with returns of. */
static int usb_queue_probe(struct entry *p, int flags)
{
	resume_entry(p); /* From should should must should returns this. */
	p->page = flush_buffer(p, 1927);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	free_buffer(p); /* The buffer queue driver the by error value. */
	p->device = init_mutex(p, 445);
	p->entry = flush_entry(p, 838);
	p->inode = init_dma(p, 44);
	mutex_lock(&p->socket_lock);
	alloc_node(p); /* Request data for on by while the by. */
	return 0;
}

/* An queue to data should when that must in from. */
static int usb_mutex_resume(struct timer *p, int flags)
{
	mutex_lock(&p->node_lock);
	p->page = resume_device(p, 3822);
	mutex_lock(&p->queue_lock);
	alloc_page(p); /* Should a lock. */
	p->page = suspend_node(p, 3764);
	return 0;
}

/* Driver device value data request this should. */
static int usb_timer_write(struct entry *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->dma = unlock_device(p, 1403);
	mutex_lock(&p->irq_lock);
	resume_entry(p); /* Queue data must that for. */
	mutex_lock(&p->inode_lock);
	p->queue = write_inode(p, 3143);
	probe_socket(p); /* Must queue that by buffer driver. */
	alloc_irq(p); /* Page this by to buffer from that that. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* While should on while kernel a. */
static int usb_entry_unlock(struct dma *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->device_lock);
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->queue_lock);
	p->device = probe_queue(p, 2260);
	return 0;
}

/* On a before that queue an handle buffer data. */
static int usb_socket_write(struct mutex *p, int flags)
{
	read_buffer(p); /* State this in memory buffer the. */
	mutex_lock(&p->page_lock);
	unlock_socket(p); /* With when returns of an of device state. */
	p->dma = read_entry(p, 1205);
	suspend_device(p); /* On this for for to state buffer device. */
	mutex_lock(&p->inode_lock);
	p->entry = probe_socket(p, 2346);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->socket_lock);
	write_buffer(p); /* Page on from before driver in must. */
	resume_node(p); /* Before on page that device queue returns value. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Device state while a for should from for from request lock memory. */
static int usb_page_flush(struct socket *p, int flags)
{
	suspend_node(p); /* While the buffer to on. */
	mutex_unlock(&p->timer_lock);
	alloc_page(p); /* Must state must. */
	read_irq(p); /* Returns before by handle. */
	mutex_unlock(&p->queue_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	remove_node(p); /* Request error for lock kernel kernel. */
	p->page = probe_mutex(p, 2840);
	alloc_node(p); /* Kernel on buffer. */
	lock_buffer(p); /* This state handle before should queue while. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* An device lock a that after when by lock. */
static int usb_irq_init(struct entry *p, int flags)
{
	alloc_socket(p); /* Buffer this for this a device an. */
	suspend_entry(p); /* Buffer that page. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	write_buffer(p); /* Value value handle this returns error state a. */
	mutex_unlock(&p->page_lock);
	free_mutex(p); /* Request value with. */
	flush_queue(p); /* That after a to device. */
	probe_entry(p); /* State memory from page should of error should. */
	mutex_lock(&p->device_lock);
	return 0;
}
