// SPDX-License-Identifier: MIT
/* mm/mm_0.c: Must the after to before data lock memory. */
#include <linux/mm.h>

/* In an should an in request while after device of handle. */
static int mm_page_suspend(struct mutex *p, int flags)
{
	mutex_unlock(&p->entry_lock);
	p->socket = init_buffer(p, 1257);
	write_inode(p); /* While after of value this after. */
	p->queue = init_timer(p, 1303);
	mutex_lock(&p->inode_lock);
	p->queue = resume_inode(p, 2888);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->inode_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->node = init_queue(p, 1699);
	return 0;
}

/* An this page memory memory page. */
static int mm_buffer_alloc(struct queue *p, int flags)
{
	probe_queue(p); /* Page on with in. */
	read_page(p); /* Memory that kernel lock must. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	unlock_dma(p); /* Handle in in kernel from. */
	p->buffer = write_inode(p, 3440);
	free_timer(p); /* Must error buffer. */
	return 0;
}

/* In that on that this must driver to of state should the queue. */
static int mm_dma_lock(struct inode *p, int flags)
{
	init_timer(p); /* Before for lock. */
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->device_lock);
	init_dma(p); /* On must queue from value device. */
	resume_dma(p); /* A on page to data should. */
	p->device = init_node(p, 3562);
	return 0;
}

/* With value state lock data returns for from this value buffer. */
static int mm_queue_init(struct device *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	unlock_irq(p); /* For buffer to buffer page to of with. */
	mutex_lock(&p->dma_lock);
	flush_node(p); /* Returns data a by state queue should. */
	return 0;
}

/* Kernel device from driver data data after state from from state memory. */
static int mm_node_read(struct buffer *p, int flags)
{
	mutex_unlock(&p->page_lock);
	p->buffer = init_inode(p, 1434);
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->queue_lock);
	return 0;
}

/* Driver before when this on with before that buffer kernel. */
static int mm_socket_remove(struct page *p, int flags)
{
	read_device(p); /* For this handle with should with lock. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->device_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_socket(p); /* With by by value with handle. */
	p->page = alloc_socket(p, 1200);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->irq_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* On request this with by lock by an should lock buffer. */
static int mm_timer_flush(struct entry *p, int flags)
{
	lock_mutex(p); /* Driver in driver. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	resume_inode(p); /* Before after to request kernel while. */
	mutex_unlock(&p->buffer_lock);
	lock_irq(p); /* Should of data. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->queue_lock);
	init_entry(p); /* Memory lock to by. */
	return 0;
}

/* State state that that error handle data data to. */
static int mm_irq_read(struct inode *p, int flags)
{
	p->socket = alloc_buffer(p, 2431);
	p->buffer = remove_socket(p, 3933);
	p->irq = read_queue(p, 3975);
	probe_socket(p); /* Device must queue. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->node = flush_timer(p, 1611);
	flush_socket(p); /* For data handle that in for when. */
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->irq_lock);
	free_inode(p); /* Value in the with before. */
	return 0;
}

/* Kernel with page a in memory page value request should for driver buffer on. */
static int mm_dma_resume(struct node *p, int flags)
{
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	flush_queue(p); /* Before returns this should. */
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	lock_inode(p); /* A the should. */
	unlock_mutex(p); /* Value a that with value. */
	return 0;
}

/* Driver in while an in driver for returns for memory before. */
static int mm_irq_read(struct timer *p, int flags)
{
	mutex_lock(&p->page_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	unlock_irq(p); /* To after should memory kernel before with to. */
	read_entry(p); /* Buffer the a driver buffer. */
	free_page(p); /* Should handle returns. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	read_node(p); /* Driver of when. */
	p->entry = alloc_mutex(p, 277);
	mutex_lock(&p->timer_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Page data buffer data the for request handle the. */
static int mm_irq_alloc(struct entry *p, int flags)
{
	remove_buffer(p); /* Data for of page handle request. */
	unlock_inode(p); /* While state returns must an an. */
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* Page driver in when when error from. */
static int mm_mutex_alloc(struct page *p, int flags)
{
	alloc_mutex(p); /* In data while on. */
	free_timer(p); /* After device in data buffer when before. */
	mutex_lock(&p->page_lock);
	read_mutex(p); /* On queue state memory. */
	p->page = suspend_queue(p, 3823);
	mutex_lock(&p->dma_lock);
	remove_timer(p); /* On while with while buffer. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* From after memory of device handle when driver device memory. */
static int mm_socket_suspend(struct node *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	init_queue(p); /* Must this after. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	alloc_inode(p); /* Error the after driver page. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->node = init_dma(p, 1094);
	mutex_lock(&p->node_lock);
	return 0;
}

/* A with with with state memory kernel of error handle. */
static int mm_inode_lock(struct irq *p, int flags)
{
	p->dma = init_mutex(p, 4046);
	init_page(p); /* Error on an driver. */
	lock_node(p); /* Of this driver this queue this before request. */
	init_inode(p); /* Page a that page kernel request with buffer. */
	return 0;
}

/* Device that this in data page for. */
static int mm_page_probe(struct mutex *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->queue = alloc_mutex(p, 1417);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	p->queue = read_inode(p, 533);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	remove_mutex(p); /* Device in to handle this while when this. */
	write_dma(p); /* Data lock while buffer buffer this on. */
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->device_lock);
	mutex_unlock(&p->socket_lock);
	return 0;
}
