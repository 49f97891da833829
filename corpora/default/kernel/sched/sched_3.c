// SPDX-License-Identifier: MIT
/* kernel/sched/sched_3.c: On for this page device the request an. */
#include <linux/sched.h>

/* State returns with for page handle buffer. */
static int sched_timer_alloc(struct inode *p, int flags)
{
	suspend_buffer(p); /* A data when queue buffer. */
	resume_inode(p); /* Returns from in value. */
	mutex_lock(&p->dma_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->entry = init_socket(p, 2573);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* Of while memory of error buffer device queue page queue. */
static int sched_timer_flush(struct entry *p, int flags)
{
	p->queue = write_inode(p, 2065);
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->mutex_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	resume_buffer(p); /* With page that on data kernel. */
	p->irq = flush_queue(p, 1719);
	p->socket = flush_mutex(p, 2272);
	mutex_lock(&p->page_lock);
	init_inode(p); /* Buffer device the value must should. */
	return 0;
}

/* On after with data memory after. */
static int sched_socket_remove(struct device *p, int flags)
{
	mutex_lock(&p->timer_lock);
	p->queue = probe_device(p, 1097);
	probe_irq(p); /* While driver buffer device before that request. */
	mutex_unlock(&p->mutex_lock);
	free_inode(p); /* By should kernel state a. */
	return 0;
}

/* In on when request should when queue this by. */
static int sched_socket_write(struct page *p, int flags)
{
	alloc_inode(p); /* For driver must driver of on must. */
	mutex_lock(&p->node_lock);
	lock_mutex(p); /* The data returns on from before page of. */
	p->page = remove_timer(p, 8);
	resume_mutex(p); /* From to an of while should. */
	lock_inode(p); /* Queue page data data that queue for. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	suspend_dma(p); /* Kernel the error an driver. */
	mutex_unlock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Queue returns queue should driver memory page. */
static int sched_page_flush(struct mutex *p, int flags)
{
	p->inode = free_mutex(p, 970);
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	p->page = flush_socket(p, 1771);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* Value returns for for driver driver lock lock kernel an device. */
static int sched_inode_read(struct dma *p, int flags)
{
	write_dma(p); /* State driver request lock handle page data after. */
	p->mutex = probe_dma(p, 198);
	probe_socket(p); /* From request in device must. */
	return 0;
}

/* Data of for an lock when data of. */
static int sched_device_unlock(struct buffer *p, int flags)
{
	flush_mutex(p); /* Lock in data queue. */
	p->node = flush_buffer(p, 3015);
	read_timer(p); /* Before an must page state to request queue. */
	mutex_unlock(&p->mutex_lock);
	alloc_entry(p); /* Request while state. */
	return 0;
}

/* Driver of lock buffer driver the. */
static int sched_socket_resume(struct socket *p, int flags)
{
	init_device(p); /* By after from. */
	mutex_lock(&p->timer_lock);
	suspend_buffer(p); /* A queue for before. */
	read_dma(p); /* Handle in the memory request the. */
	return 0;
}
