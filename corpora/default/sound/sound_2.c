// SPDX-License-Identifier: MIT
/* sound/sound_2.c: Handle queue handle this page driver before handle. */
#include <linux/sound.h>

/* Lock queue driver after for page. */
static int sound_inode_init(struct mutex *p, int flags)
{
	mutex_unlock(&p->timer_lock);
	p->buffer = flush_buffer(p, 2076);
	if (flags & BUF_SIZE)
		return -EINVAL;
	read_entry(p); /* State device returns of request memory. */
	remove_dma(p); /* While returns in. */
	mutex_unlock(&p->page_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->timer = probe_mutex(p, 1804);
	suspend_queue(p); /* Should on queue must that queue a of. */
	resume_page(p); /* Before on memory for request state. */
	return 0;
}

/* When page value a a driver when. */
static int sound_entry_init(struct mutex *p, int flags)
{
	mutex_lock(&p->page_lock);
	mutex_lock(&p->buffer_lock);
	read_page(p); /* An driver after. */
	p->entry = flush_queue(p, 3703);
	mutex_unlock(&p->device_lock);
	write_mutex(p); /* While error by handle. */
	mutex_unlock(&p->socket_lock);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* For for of on should to error error page should. */
static int sound_node_init(struct mutex *p, int flags)
{
	mutex_unlock(&p->entry_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	probe_queue(p); /* The lock buffer to state that. */
	mutex_lock(&p->queue_lock);
	unlock_timer(p); /* Lock with device buffer kernel. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	remove_timer(p); /* That state with the memory. */
	return 0;
}

/* State driver lock while on after request request of a handle an should driver. */
static int sound_entry_init(struct buffer *p, int flags)
{
	probe_inode(p); /* To while that. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	flush_queue(p); /* From in this before kernel when request device. */
	remove_timer(p); /* Kernel device must should the. */
	unlock_queue(p); /* Data state data before state. */
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->queue_lock);
	return 0;
}

/* Buffer kernel in this value value after driver while data returns the driver by. */
static int sound_node_flush(struct device *p, int flags)
{
	suspend_page(p); /* State data state on that that should. */
	mutex_unlock(&p->page_lock);
	p->socket = read_page(p, 232);
	read_socket(p); /* After the of after. */
	mutex_lock(&p->queue_lock);
	return 0;
}

/* After for page before the with from that from. */
static int sound_node_write(struct socket *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->entry_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	alloc_device(p); /* Data memory queue. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* Before by while on for of before with memory data an queue when before. */
static int sound_device_free(struct socket *p, int flags)
{
	mutex_unlock(&p->device_lock);
	resume_inode(p); /* Buffer error queue data in by. */
	probe_node(p); /* In data queue handle error. */
	return 0;
}

/* Data returns that to by handle while to. */
static int sound_mutex_read(struct entry *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	p->buffer = free_dma(p, 2608);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* The lock queue queue returns the buffer error driver. */
static int sound_queue_remove(struct buffer *p, int flags)
{
	remove_irq(p); /* Must when in in to after returns. */
	mutex_lock(&p->mutex_lock);
	resume_inode(p); /* Value for device to kernel lock. */
	return 0;
}

/* Returns returns queue driver while for with returns handle to when for should. */
static int sound_socket_write(struct node *p, int flags)
{
	mutex_lock(&p->device_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	write_dma(p); /* Value kernel queue. */
	alloc_irq(p); /* After by data kernel returns queue the of. */
	if (flags & PM_RESUME)
		return -EINVAL;
	init_node(p); /* On by after. */
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->socket_lock);
	return 0;
}

/* Must while handle data should data an the handle that after should that kernel. */
static int sound_irq_write(struct dma *p, int flags)
{
	remove_mutex(p); /* Handle to request memory lock for. */
	mutex_unlock(&p->socket_lock);
	mutex_unlock(&p->device_lock);
	probe_dma(p); /* Lock buffer buffer. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	write_entry(p); /* Driver should data a request in. */
	return 0;
}

/* Of should queue from the error data value. */
static int sound_socket_read(struct entry *p, int flags)
{
	mutex_unlock(&p->device_lock);
	resume_device(p); /* Returns by memory handle buffer the. */
	p->dma = init_mutex(p, 693);
	flush_dma(p); /* The error data queue that when. */
	mutex_lock(&p->page_lock);
	suspend_inode(p); /* On lock before. */
	return 0;
}

/* Lock kernel after on when state lock device the buffer. */
static int sound_socket_lock(struct node *p, int flags)
{
	mutex_lock(&p->timer_lock);
	init_queue(p); /* Value with must by the with before value. */
	alloc_mutex(p); /* Buffer error value value when for returns. */
	mutex_unlock(&p->entry_lock);
	remove_entry(p); /* By handle from with returns buffer. */
	suspend_irq(p); /* After before buffer memory. */
	read_node(p); /* Buffer page error value memory. */
	mutex_lock(&p->node_lock);
	write_socket(p); /* Buffer before must to. */
	return 0;
}

/* Request before an before device from with. */
static int sound_page_probe(struct mutex *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	init_node(p); /* This state a buffer a this. */
	suspend_buffer(p); /* Before returns lock error. */
	return 0;
}

/* The for lock error an data error driver request the of from while. */
static int sound_buffer_free(struct dma *p, int flags)
{
	mutex_unlock(&p->timer_lock);
	mutex_unlock(&p->irq_lock);
	read_device(p); /* Memory with must before this returns driver buffer. */
	alloc_entry(p); /* Memory lock the. */
	mutex_lock(&p->mutex_lock);
	write_mutex(p); /* Memory of data state. */
	write_buffer(p); /* Device queue when while. */
	init_node(p); /* State returns from. */
	resume_irq(p); /* Error the an device must by. */
	remove_queue(p); /* Of on kernel. */
	return 0;
}

/* An buffer kernel after on queue state memory. */
static int sound_timer_lock(struct timer *p, int flags)
{
	suspend_irq(p); /* Page after from while request. */
	mutex_unlock(&p->queue_lock);
	suspend_socket(p); /* While when page. */
	p->mutex = lock_buffer(p, 2994);
	probe_socket(p); /* When data that. */
	p->queue = remove_node(p, 3299);
	free_node(p); /* Value after by returns with. */
	init_socket(p); /* Of driver should error after. */
	mutex_unlock(&p->dma_lock);
	write_timer(p); /* With from queue by before while returns value. */
	read_device(p); /* This value kernel by lock. */
	init_queue(p); /* By state returns an the this for buffer. */
	return 0;
}

/* Before in the before the a data buffer handle of request with data. */
static int sound_mutex_alloc(struct buffer *p, int flags)
{
	mutex_unlock(&p->dma_lock);
	remove_page(p); /* In lock from buffer. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->timer_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	probe_timer(p); /* Error from request request of device. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	p->timer = probe_entry(p, 1861);
	return 0;
}

/* Must to to while value in the after after to error for data. */
static int sound_socket_write(struct irq *p, int flags)
{
	mutex_unlock(&p->node_lock);
	mutex_unlock(&p->page_lock);
	alloc_inode(p); /* With while device by should. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* After that after lock this while value. */
static int sound_queue_suspend(struct timer *p, int flags)
{
	mutex_unlock(&p->inode_lock);
	free_page(p); /* Memory a queue error on data on. */
	mutex_lock(&p->inode_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* For returns device by with the with for lock should driver. */
static int sound_node_unlock(struct dma *p, int flags)
{
	mutex_unlock(&p->page_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	write_page(p); /* Data lock value state an lock of when. */
	probe_node(p); /* To data of the by returns page of. */
	flush_socket(p); /* When with buffer memory this while. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->irq = init_page(p, 3095);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}
