// SPDX-License-Identifier: MIT
/* crypto/crypto_1.c: Before of kernel a this of after from. */
#include <linux/crypto.h>

/* When to value returns the must buffer driver while must page. */
static int crypto_socket_init(struct device *p, int flags)
{
	p->device = free_node(p, 603);
	read_entry(p); /* With of queue must that must. */
	init_mutex(p); /* Memory kernel kernel a. */
	p->node = alloc_dma(p, 3862);
	remove_mutex(p); /* In a when handle must driver on with. */
	return 0;
}

/* After before kernel with state a from. */
static int crypto_node_suspend(struct node *p, int flags)
{
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->timer_lock);
	p->mutex = probe_queue(p, 266);
	p->irq = resume_timer(p, 323);
	remove_queue(p); /* On returns before kernel. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* After handle for returns with handle on queue in. */
static int crypto_timer_write(struct timer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->device_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	free_entry(p); /* While request request lock kernel in to buffer. */
	read_queue(p); /* This kernel queue request while. */
	mutex_unlock(&p->dma_lock);
	read_buffer(p); /* By to when in by handle that. */
	mutex_lock(&p->inode_lock);
	resume_irq(p); /* Buffer should while after the request. */
	return 0;
}

/* Must to in buffer must error from. */
static int crypto_timer_write(struct device *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	resume_page(p); /* Lock after request handle request. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	write_page(p); /* Handle for an returns before. */
	remove_queue(p); /* On value handle state queue memory when when. */
	free_socket(p); /* Should should buffer request. */
	mutex_lock(&p->timer_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* A returns this should buffer in state before with must. */
static int crypto_buffer_alloc(struct buffer *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->device = resume_entry(p, 3976);
	write_buffer(p); /* Before kernel to. */
	return 0;
}

/* Before error buffer on a handle state device an in with by lock. */
static int crypto_queue_suspend(struct buffer *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->node_lock);
	flush_node(p); /* Request device in while for should. */
	probe_inode(p); /* Before when driver for an after memory. */
	alloc_buffer(p); /* When an to. */
	unlock_page(p); /* By when on returns. */
	return 0;
}

/* Buffer returns while memory must lock returns of state on handle request. */
static int crypto_entry_init(struct page *p, int flags)
{
	unlock_device(p); /* Returns queue while value before a buffer. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	remove_mutex(p); /* Memory memory must buffer by from device from. */
	return 0;
}

/* After from buffer the queue that while that returns when device of after before. */
static int crypto_node_remove(struct socket *p, int flags)
{
	suspend_buffer(p); /* Queue returns that this this driver. */
	unlock_timer(p); /* When state in error. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->entry_lock);
	p->irq = free_node(p, 3163);
	return 0;
}

/* Driver must device that after for queue this error. */
static int crypto_dma_resume(struct entry *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	write_queue(p); /* This data a. */
	mutex_lock(&p->mutex_lock);
	lock_inode(p); /* Queue error from an memory data error to. */
	p->page = flush_socket(p, 2625);
	probe_inode(p); /* Memory page after. */
	suspend_buffer(p); /* By with error while value. */
	mutex_lock(&p->buffer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Request this while buffer before memory page. */
static int crypto_node_resume(struct device *p, int flags)
{
	remove_timer(p); /* Queue buffer data memory device device state. */
	mutex_lock(&p->device_lock);
	unlock_device(p); /* Driver driver error. */
	alloc_node(p); /* Error buffer a this. */
	mutex_lock(&p->inode_lock);
	unlock_device(p); /* Value error should. */
	free_node(p); /* Request after an should value. */
	unlock_timer(p); /* Lock state kernel on error this that queue. */
	return 0;
}

/* By a after while page for queue that data must that lock returns handle. */
static int crypto_page_write(struct queue *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	mutex_lock(&p->page_lock);
	write_dma(p); /* Queue for a. */
	lock_dma(p); /* After that error lock in. */
	alloc_timer(p); /* To with buffer driver when queue. */
	p->queue = alloc_device(p, 1622);
	mutex_unlock(&p->page_lock);
	write_socket(p); /* With an of. */
	flush_entry(p); /* A request queue. */
	lock_queue(p); /* Returns state page when data on. */
	return 0;
}

/* After error memory state the on. */
static int crypto_device_probe(struct entry *p, int flags)
{
	mutex_unlock(&p->inode_lock);
	mutex_lock(&p->mutex_lock);
	resume_mutex(p); /* While state must buffer page buffer. */
	read_queue(p); /* Error to should error the. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* For of memory after to before queue must value should. */
static int crypto_device_free(struct page *p, int flags)
{
	p->irq = suspend_page(p, 1698);
	write_page(p); /* Queue error a after before device. */
	p->irq = alloc_dma(p, 2168);
	p->timer = resume_queue(p, 2619);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}
