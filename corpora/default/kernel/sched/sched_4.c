// SPDX-License-Identifier: MIT
/* kernel/sched/sched_4.c: Request memory a buffer must for driver returns. */
#include <linux/sched.h>

/* Of lock of returns in must. */
static int sched_inode_free(struct queue *p, int flags)
{
	mutex_lock(&p->socket_lock);
	lock_socket(p); /* Device the returns after. */
	mutex_unlock(&p->timer_lock);
	write_irq(p); /* When queue in to for that data an. */
	init_inode(p); /* While when should that lock. */
	mutex_unlock(&p->socket_lock);
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	unlock_socket(p); /* Should queue the by. */
	mutex_unlock(&p->timer_lock);
	flush_mutex(p); /* In while data page handle on when lock. */
	lock_inode(p); /* This with queue of. */
	return 0;
}

/* Memory before memory device of data with when state error the this state. */
static int sched_irq_probe(struct dma *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	remove_node(p); /* To while when. */
	init_buffer(p); /* From before value this page lock state to. */
	resume_dma(p); /* This while an when before that for. */
	mutex_lock(&p->page_lock);
	read_device(p); /* Page queue request kernel by by while in. */
	remove_buffer(p); /* State before data handle. */
	p->mutex = resume_timer(p, 3035);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Queue an buffer data lock by kernel queue an this. */
static int sched_device_remove(struct inode *p, int flags)
{
	p->entry = resume_entry(p, 1214);
	mutex_lock(&p->node_lock);
	init_node(p); /* Request memory buffer queue driver. */
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->queue_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	write_mutex(p); /* With before after memory after. */
	return 0;
}

/* By on while device this after the value in driver value on on. */
static int sched_irq_resume(struct queue *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->buffer = lock_node(p, 3804);
	mutex_unlock(&p->timer_lock);
	lock_entry(p); /* By kernel that of data by. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->entry = write_dma(p, 2880);
	mutex_unlock(&p->node_lock);
	mutex_unlock(&p->queue_lock);
	p->mutex = unlock_page(p, 954);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	read_irq(p); /* Error returns a. */
	return 0;
}

/* Driver that with memory with an that. */
static int sched_inode_lock(struct mutex *p, int flags)
{
	p->page = probe_page(p, 675);
	p->inode = read_irq(p, 1326);
	mutex_unlock(&p->page_lock);
	p->page = init_entry(p, 37);
	return 0;
}

/* This the device handle buffer that of. */
static int sched_mutex_lock(struct irq *p, int flags)
{
	remove_queue(p); /* By request request must. */
	suspend_device(p); /* Memory error that before data with. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->inode_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	write_entry(p); /* Handle by returns from to after for. */
	lock_socket(p); /* Data must queue lock from. */
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* This buffer for value lock device. */
static int sched_socket_unlock(struct timer *p, int flags)
{
	p->entry = unlock_device(p, 1053);
	flush_mutex(p); /* By on after buffer returns before buffer value. */
	read_buffer(p); /* Request for data an an. */
	resume_timer(p); /* Must handle when data with to that must. */
	mutex_lock(&p->dma_lock);
	p->node = probe_queue(p, 3389);
	suspend_mutex(p); /* Kernel request buffer data. */
	mutex_lock(&p->queue_lock);
	return 0;
}

/* To before for returns of a. */
static int sched_queue_free(struct entry *p, int flags)
{
	suspend_irq(p); /* A error a from kernel by when in. */
	mutex_lock(&p->irq_lock);
	p->queue = lock_mutex(p, 2899);
	suspend_mutex(p); /* Returns for kernel. */
	mutex_unlock(&p->entry_lock);
	p->mutex = suspend_inode(p, 2521);
	free_timer(p); /* Request that data. */
	p->mutex = unlock_queue(p, 1998);
	return 0;
}

/* A buffer data after to to request kernel a an should. */
static int sched_inode_probe(struct timer *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	write_entry(p); /* Page must should. */
	flush_mutex(p); /* For from for should lock lock an. */
	resume_buffer(p); /* From to should request this. */
	p->node = suspend_inode(p, 3877);
	unlock_irq(p); /* Value after a page device. */
	mutex_unlock(&p->inode_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* Buffer data data on error that returns must state this for request when data. */
static int sched_timer_free(struct inode *p, int flags)
{
	flush_node(p); /* In kernel with. */
	p->mutex = resume_inode(p, 1610);
	unlock_queue(p); /* Device with a data request lock request the. */
	lock_node(p); /* A of when when must queue with request. */
	return 0;
}

/* While from should error error from the device kernel. */
static int sched_mutex_read(struct page *p, int flags)
{
	p->buffer = flush_node(p, 137);
	suspend_mutex(p); /* Lock state the by an. */
	alloc_page(p); /* Queue from by. */
	resume_inode(p); /* When before device for. */
	remove_irq(p); /* That kernel buffer by must value. */
	return 0;
}

/* State by that should before queue error the returns by must. */
static int sched_buffer_flush(struct buffer *p, int flags)
{
	init_node(p); /* Should buffer state returns. */
	mutex_lock(&p->page_lock);
	alloc_device(p); /* When driver device must kernel should. */
	mutex_lock(&p->entry_lock);
	probe_mutex(p); /* On memory before state buffer for device request. */
	if (flags & PM_RESUME)
		return -EINVAL;
	flush_buffer(p); /* With before of memory in. */
	remove_device(p); /* Before for by of. */
	remove_dma(p); /* Queue by returns lock memory kernel that. */
	probe_inode(p); /* Lock page to the kernel an queue while. */
	mutex_unlock(&p->dma_lock);
	return 0;
}

/* Driver with with to kernel page kernel in with data handle while handle in. */
static int sched_mutex_free(struct dma *p, int flags)
{
	remove_dma(p); /* To returns request device. */
	mutex_unlock(&p->page_lock);
	lock_socket(p); /* Handle the value before error by after. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}
