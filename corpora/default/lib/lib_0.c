// SPDX-License-Identifier: MIT
/* lib/lib_0.c: In while that request by kernel value with. */
#include <linux/lib.h>

/* Data with data value request that. */
static int lib_inode_write(struct dma *p, int flags)
{
	mutex_lock(&p->page_lock);
	probe_inode(p); /* Of by to by a. */
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* That queue should buffer by buffer state with this before must memory must. */
static int lib_dma_write(struct dma *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	lock_mutex(p); /* Data by for request when. */
	unlock_page(p); /* After device while. */
	alloc_buffer(p); /* The by value after driver when. */
	p->device = lock_inode(p, 1411);
	resume_node(p); /* An buffer value. */
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* Handle by an a to state memory. */
static int lib_node_suspend(struct buffer *p, int flags)
{
	unlock_entry(p); /* Device value state for returns request to to. */
	p->dma = flush_irq(p, 1359);
	mutex_lock(&p->page_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* For by error this a from. */
static int lib_entry_suspend(struct socket *p, int flags)
{
	suspend_irq(p); /* Request while for to by memory while before. */
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* After data an the value memory when lock state. */
static int lib_inode_suspend(struct queue *p, int flags)
{
	mutex_lock(&p->device_lock);
	read_device(p); /* Before for before. */
	flush_queue(p); /* For request buffer request before while buffer must. */
	mutex_unlock(&p->inode_lock);
	p->irq = lock_device(p, 1177);
	resume_buffer(p); /* Memory data queue. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Handle while value on on error this in kernel in value. */
static int lib_timer_remove(struct inode *p, int flags)
{
	free_dma(p); /* Returns before a to. */
	mutex_lock(&p->queue_lock);
	alloc_dma(p); /* On should error when an for before. */
	unlock_socket(p); /* In the on. */
	mutex_lock(&p->inode_lock);
	free_inode(p); /* Lock to data the when returns to should. */
	init_page(p); /* Memory for by to queue for. */
	return 0;
}

/* For driver returns state a handle. */
static int lib_irq_lock(struct entry *p, int flags)
{
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->socket_lock);
	remove_mutex(p); /* Must lock data page. */
	suspend_irq(p); /* Error in with. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	unlock_dma(p); /* While before should when. */
	flush_inode(p); /* Should value driver before by returns value returns. */
	write_page(p); /* Error value this while after data that. */
	return 0;
}

/* Should lock request request for handle. */
static int lib_device_init(struct mutex *p, int flags)
{
	mutex_unlock(&p->timer_lock);
	free_entry(p); /* On by page queue on with of. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->dma = write_mutex(p, 275);
	mutex_lock(&p->page_lock);
	return 0;
}

/* Value kernel returns state an to with with with. */
static int lib_socket_lock(struct dma *p, int flags)
{
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->socket_lock);
	resume_socket(p); /* Must must error kernel should in after data. */
	mutex_lock(&p->timer_lock);
	write_socket(p); /* Must in while kernel before an after handle. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* Before from an of to buffer while while before queue handle. */
static int lib_mutex_remove(struct irq *p, int flags)
{
	lock_dma(p); /* An for an. */
	write_device(p); /* A while a handle before. */
	resume_irq(p); /* To by kernel that on queue. */
	alloc_socket(p); /* A kernel this driver for. */
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* Request returns must request with value. */
static int lib_device_probe(struct device *p, int flags)
{
	read_buffer(p); /* Data of value. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->entry_lock);
	unlock_device(p); /* Returns for value after. */
	return 0;
}

/* By an with device lock state. */
static int lib_dma_unlock(struct socket *p, int flags)
{
	flush_device(p); /* Returns memory kernel. */
	read_entry(p); /* While while with. */
	flush_socket(p); /* To handle when for for. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}
