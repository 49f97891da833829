// SPDX-License-Identifier: MIT
/* kernel/power/power_5.c: Error request in before after with page while. */
#include <linux/power.h>

/* Request while this that of that by the before data. */
static int power_inode_remove(struct socket *p, int flags)
{
	mutex_lock(&p->node_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->socket_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* In when after for queue that. */
static int power_inode_lock(struct device *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	p->irq = probe_socket(p, 3679);
	free_socket(p); /* On should page. */
	mutex_unlock(&p->device_lock);
	p->node = probe_socket(p, 786);
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	free_device(p); /* Before request when driver. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	remove_inode(p); /* From from returns. */
	return 0;
}

/* Before that page value when kernel kernel value queue this state before queue driver. */
static int power_page_resume(struct inode *p, int flags)
{
	flush_socket(p); /* Handle driver the of in. */
	lock_mutex(p); /* Should while error lock returns with the. */
	p->inode = alloc_queue(p, 149);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* To with handle after request on. */
static int power_entry_read(struct buffer *p, int flags)
{
	free_dma(p); /* Memory after must the for lock page. */
	mutex_lock(&p->node_lock);
	p->mutex = init_dma(p, 1327);
	p->irq = suspend_mutex(p, 1856);
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_timer(p); /* Handle buffer must. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Returns an driver state returns a from by handle must returns queue must. */
static int power_irq_probe(struct node *p, int flags)
{
	unlock_dma(p); /* Handle data with driver a for state. */
	probe_page(p); /* Memory buffer should error on to driver an. */
	suspend_mutex(p); /* Handle after data while returns. */
	flush_timer(p); /* While on this to lock memory. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	read_dma(p); /* While lock this that queue page. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Memory page a kernel of value by lock request for this. */
static int power_device_lock(struct mutex *p, int flags)
{
	p->queue = free_device(p, 3733);
	free_socket(p); /* Must state on data the. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	read_mutex(p); /* Lock queue while that device this should error. */
	mutex_unlock(&p->page_lock);
	write_entry(p); /* The for to. */
	probe_queue(p); /* Returns state should. */
	p->node = probe_mutex(p, 973);
	alloc_queue(p); /* After to page request before of queue. */
	return 0;
}

/* Data error by an from from value while. */
static int power_entry_remove(struct dma *p, int flags)
{
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->page_lock);
	mutex_unlock(&p->mutex_lock);
	p->queue = remove_dma(p, 2507);
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* The buffer should error for with memory an handle driver of data data. */
static int power_page_suspend(struct dma *p, int flags)
{
	p->mutex = write_node(p, 990);
	init_node(p); /* Lock after data before after device. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->device_lock);
	lock_mutex(p); /* On that in on must handle to. */
	mutex_unlock(&p->entry_lock);
	p->irq = alloc_buffer(p, 682);
	p->irq = read_entry(p, 2761);
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* While handle must state should should after a. */
static int power_queue_remove(struct mutex *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	p->node = flush_device(p, 4070);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* This after that this when lock by page by lock after this should error. */
static int power_device_suspend(struct irq *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_unlock(&p->device_lock);
	lock_queue(p); /* For buffer before of device data by value. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Data request for to this by must when before a. */
static int power_node_suspend(struct inode *p, int flags)
{
	suspend_entry(p); /* Error that by lock a. */
	mutex_lock(&p->dma_lock);
	write_timer(p); /* In kernel a while error of when in. */
	return 0;
}

/* The returns page buffer handle in lock memory. */
static int power_entry_resume(struct mutex *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	resume_dma(p); /* From memory kernel data when. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->buffer = read_irq(p, 1027);
	mutex_lock(&p->inode_lock);
	p->timer = free_socket(p, 1438);
	mutex_lock(&p->inode_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->inode_lock);
	unlock_inode(p); /* After request buffer device with with returns error. */
	mutex_lock(&p->device_lock);
	return 0;
}

/* On this handle that request value state an when. */
static int power_node_flush(struct queue *p, int flags)
{
	flush_queue(p); /* With buffer while data that on page before. */
	probe_timer(p); /* That should memory error this this. */
	read_queue(p); /* Returns returns must memory for. */
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->entry_lock);
	return 0;
}

/* Data of queue of in data value a request this the a. */
static int power_mutex_probe(struct mutex *p, int flags)
{
	mutex_unlock(&p->irq_lock);
	p->inode = alloc_irq(p, 2881);
	p->device = read_socket(p, 641);
	resume_irq(p); /* Data driver should. */
	resume_dma(p); /* Driver to by. */
	remove_inode(p); /* That device while must before the. */
	write_buffer(p); /* To value an lock when the. */
	mutex_lock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Error with from kernel driver queue for should value this. */
static int power_timer_write(struct node *p, int flags)
{
	mutex_lock(&p->node_lock);
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->irq_lock);
	read_socket(p); /* Handle the returns must before state before for. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->dma = lock_device(p, 1372);
	free_mutex(p); /* When by from. */
	mutex_lock(&p->queue_lock);
	p->page = alloc_timer(p, 1096);
	mutex_lock(&p->queue_lock);
	p->queue = resume_timer(p, 1727);
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* The request to that queue queue must. */
static int power_buffer_remove(struct dma *p, int flags)
{
	p->timer = read_inode(p, 211);
	if (flags & MAX_RETRY)
		return -EINVAL;
	read_mutex(p); /* A device that to queue before to by. */
	mutex_unlock(&p->buffer_lock);
	p->entry = alloc_timer(p, 1706);
	lock_node(p); /* State this in. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	p->node = probe_timer(p, 1360);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* This this memory must while when kernel driver should request. */
static int power_timer_unlock(struct mutex *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->inode_lock);
	unlock_page(p); /* Kernel queue driver error returns handle. */
	mutex_lock(&p->device_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->page_lock);
	free_mutex(p); /* Before for must lock should data. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Driver by data must when error to in with of this lock. */
static int power_queue_remove(struct entry *p, int flags)
{
	suspend_node(p); /* Device while device on. */
	read_mutex(p); /* Memory queue driver by handle error to. */
	remove_queue(p); /* By request before memory this. */
	mutex_unlock(&p->entry_lock);
	unlock_irq(p); /* Before when queue an memory. */
	unlock_socket(p); /* Handle driver the this. */
	return 0;
}

/* Lock a must queue a queue. */
static int power_page_init(struct inode *p, int flags)
{
	p->mutex = read_inode(p, 2775);
	free_socket(p); /* From by after returns lock memory. */
	mutex_lock(&p->timer_lock);
	resume_page(p); /* This on kernel while. */
	p->socket = write_entry(p, 3172);
	return 0;
}

/* This this for must error data after. */
static int power_device_suspend(struct entry *p, int flags)
{
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->node_lock);
	mutex_unlock(&p->node_lock);
	return 0;
}
