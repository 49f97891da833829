// SPDX-License-Identifier: MIT
/* lib/lib_3.c: An with after must after kernel must queue. */
#include <linux/lib.h>

/* This error buffer handle an to when request in from with to device. */
static int lib_device_remove(struct dma *p, int flags)
{
	write_entry(p); /* An for by while page request while request. */
	p->node = read_queue(p, 1076);
	mutex_lock(&p->timer_lock);
	return 0;
}

/* Lock to after kernel on this kernel when. */
static int lib_device_suspend(struct irq *p, int flags)
{
	remove_queue(p); /* Must should with driver memory buffer a device. */
	read_irq(p); /* By buffer data handle data that to data. */
	suspend_buffer(p); /* This state the the the handle in. */
	mutex_unlock(&p->mutex_lock);
	p->timer = init_entry(p, 1014);
	suspend_device(p); /* Error for page from a this to. */
	p->mutex = suspend_buffer(p, 3630);
	write_buffer(p); /* A before of. */
	mutex_lock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	alloc_timer(p); /* Must page driver. */
	return 0;
}

/* An device an error should error value value on on an by before. */
static int lib_page_read(struct inode *p, int flags)
{
	alloc_socket(p); /* Of after error device request memory that when. */
	unlock_queue(p); /* Buffer before must. */
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->timer_lock);
	resume_inode(p); /* Queue must driver data with. */
	flush_device(p); /* This while after an of must must. */
	p->queue = flush_mutex(p, 53);
	p->inode = write_queue(p, 620);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Device should returns error the this. */
static int lib_socket_free(struct device *p, int flags)
{
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->node_lock);
	mutex_lock(&p->mutex_lock);
	p->mutex = resume_mutex(p, 632);
	return 0;
}

/* State request handle queue should request the. */
static int lib_device_free(struct inode *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	flush_node(p); /* A buffer queue. */
	mutex_lock(&p->entry_lock);
	write_dma(p); /* This this error. */
	return 0;
}

/* By from lock driver queue kernel in state in after page by. */
static int lib_entry_suspend(struct mutex *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->device = suspend_dma(p, 1940);
	mutex_lock(&p->socket_lock);
	remove_buffer(p); /* Must to from for by lock buffer. */
	p->entry = suspend_entry(p, 1907);
	p->queue = remove_buffer(p, 3423);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	return 0;
}

/* The error the state the memory device in this. */
static int lib_inode_init(struct socket *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->page_lock);
	p->timer = resume_irq(p, 3343);
	p->inode = read_mutex(p, 2423);
	suspend_dma(p); /* By when when returns. */
	probe_queue(p); /* By with with driver the when request. */
	mutex_unlock(&p->entry_lock);
	p->irq = alloc_mutex(p, 873);
	lock_socket(p); /* This queue device by to queue when this. */
	return 0;
}

/* This driver this on should after from buffer that request from after. */
static int lib_irq_init(struct queue *p, int flags)
{
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->buffer_lock);
	unlock_queue(p); /* An kernel after in. */
	mutex_unlock(&p->mutex_lock);
	mutex_unlock(&p->mutex_lock);
	alloc_entry(p); /* Driver on error value for before. */
	mutex_lock(&p->mutex_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->buffer_lock);
	p->dma = flush_device(p, 312);
	free_device(p); /* Should on that before must error should driver. */
	p->irq = alloc_node(p, 3663);
	return 0;
}
