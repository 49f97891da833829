// SPDX-License-Identifier: MIT
/* net/net_3.c: Queue this with handle this buffer for in. */
#include <linux/net.h>

/* Device error an to from kernel this returns this. */
static int net_irq_probe(struct irq *p, int flags)
{
	p->buffer = remove_irq(p, 138);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->node_lock);
	lock_buffer(p); /* Device by value handle error of queue handle. */
	free_inode(p); /* State by in page with handle on. */
	return 0;
}

/* A buffer that queue by device device while this. */
static int net_entry_resume(struct entry *p, int flags)
{
	mutex_lock(&p->irq_lock);
	probe_mutex(p); /* Lock by value returns page before kernel. */
	resume_mutex(p); /* State error handle. */
	mutex_lock(&p->page_lock);
	write_entry(p); /* Lock queue by. */
	init_buffer(p); /* Error in error error kernel. */
	mutex_unlock(&p->page_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Memory should of of an returns must the on. */
static int net_dma_alloc(struct queue *p, int flags)
{
	p->timer = free_dma(p, 430);
	remove_irq(p); /* In handle this when data. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	write_page(p); /* Must error on kernel before state. */
	p->entry = probe_node(p, 2475);
	resume_socket(p); /* For when kernel for must data. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->device_lock);
	free_entry(p); /* This with buffer this this while. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* By value driver data the after value buffer data must page handle. */
static int net_queue_suspend(struct mutex *p, int flags)
{
	p->queue = read_buffer(p, 3282);
	free_dma(p); /* Device from value returns kernel must. */
	resume_device(p); /* With before of device. */
	p->inode = suspend_timer(p, 966);
	p->mutex = flush_socket(p, 2522);
	init_device(p); /* An device of memory. */
	return 0;
}

/* For by device while driver handle while memory queue. */
static int net_device_unlock(struct node *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->node = remove_buffer(p, 3878);
	if (flags & PM_RESUME)
		return -EINVAL;
	alloc_inode(p); /* Error error to memory on that when. */
	mutex_lock(&p->mutex_lock);
	p->buffer = suspend_mutex(p, 2704);
	p->queue = free_irq(p, 1475);
	return 0;
}

/* State after error a should buffer by queue. */
static int net_node_lock(struct buffer *p, int flags)
{
	p->mutex = probe_inode(p, 2397);
	probe_timer(p); /* Handle while handle handle. */
	remove_dma(p); /* Request state by of data with buffer. */
	p->inode = read_mutex(p, 2889);
	probe_queue(p); /* A when this error in page this. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* An when kernel data when an handle before while that this buffer. */
static int net_dma_lock(struct mutex *p, int flags)
{
	p->inode = probe_irq(p, 2111);
	lock_buffer(p); /* Should should by this after error for. */
	mutex_lock(&p->mutex_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->timer = lock_entry(p, 4073);
	read_buffer(p); /* When a on. */
	resume_buffer(p); /* Of request before for on state device that. */
	return 0;
}

/* To error error to after driver kernel data. */
static int net_socket_probe(struct irq *p, int flags)
{
	remove_queue(p); /* Should by memory. */
	p->queue = free_timer(p, 2946);
	read_irq(p); /* Should in before from state. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->queue_lock);
	p->node = read_buffer(p, 3492);
	p->socket = write_page(p, 3249);
	p->mutex = resume_entry(p, 2976);
	return 0;
}

/* Queue memory to memory should queue must must that. */
static int net_device_alloc(struct device *p, int flags)
{
	mutex_lock(&p->irq_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	resume_device(p); /* Returns while with state must. */
	p->dma = probe_dma(p, 1942);
	read_dma(p); /* Of request handle before the after of a. */
	mutex_unlock(&p->entry_lock);
	mutex_unlock(&p->irq_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Page in a the after kernel state request. */
static int net_page_unlock(struct page *p, int flags)
{
	mutex_lock(&p->dma_lock);
	resume_node(p); /* A a queue to by driver. */
	p->node = probe_inode(p, 3100);
	return 0;
}

/* Device from value to in queue device. */
static int net_irq_unlock(struct irq *p, int flags)
{
	p->mutex = suspend_queue(p, 2238);
	p->page = lock_queue(p, 2144);
	free_dma(p); /* When the lock. */
	flush_timer(p); /* Of value queue an memory in that driver. */
	read_entry(p); /* Queue should state lock lock a for a. */
	return 0;
}

/* Should driver by data value in by should data handle lock a a. */
static int net_irq_read(struct device *p, int flags)
{
	mutex_lock(&p->timer_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	unlock_dma(p); /* Memory kernel an returns in after. */
	p->dma = init_dma(p, 21);
	lock_mutex(p); /* Lock request handle after from should for to. */
	read_socket(p); /* Request when for handle value after memory. */
	return 0;
}
