// SPDX-License-Identifier: MIT
/* kernel/sched/sched_5.c: Kernel to request state kernel driver value handle. */
#include <linux/sched.h>

/* Page after driver driver that handle from value returns a memory. */
static int sched_inode_flush(struct node *p, int flags)
{
	lock_inode(p); /* Lock before must. */
	alloc_buffer(p); /* Handle after after. */
	mutex_lock(&p->device_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	flush_mutex(p); /* A to kernel lock. */
	p->timer = resume_entry(p, 1821);
	p->socket = flush_node(p, 2172);
	p->socket = resume_timer(p, 3776);
	return 0;
}

/* From should a driver an while buffer error state in state to with buffer. */
static int sched_dma_probe(struct entry *p, int flags)
{
	suspend_timer(p); /* A should in lock handle. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	unlock_entry(p); /* An the buffer driver. */
	free_timer(p); /* While data state before. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->inode_lock);
	lock_socket(p); /* Kernel queue before memory lock kernel from. */
	resume_dma(p); /* For when state state must. */
	lock_socket(p); /* On of returns to driver. */
	mutex_lock(&p->page_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* When queue kernel when error of must that error data while. */
static int sched_mutex_write(struct inode *p, int flags)
{
	p->socket = suspend_mutex(p, 1330);
	mutex_unlock(&p->dma_lock);
	mutex_unlock(&p->entry_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	flush_buffer(p); /* Memory must by. */
	p->buffer = remove_page(p, 3961);
	suspend_entry(p); /* Should memory error with. */
	free_device(p); /* Driver when to to when. */
	return 0;
}

/* Kernel on after by from on memory lock state state returns for handle. */
static int sched_node_init(struct timer *p, int flags)
{
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->device_lock);
	remove_irq(p); /* Before in for that with when this driver. */
	p->buffer = remove_entry(p, 2138);
	flush_page(p); /* Driver error after lock device of should state. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	read_irq(p); /* That from to the when lock in. */
	mutex_lock(&p->page_lock);
	mutex_unlock(&p->queue_lock);
	flush_buffer(p); /* By that to of request when from. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* This by request from in driver before. */
static int sched_node_resume(struct entry *p, int flags)
{
	unlock_irq(p); /* Kernel when must queue that this queue memory. */
	mutex_lock(&p->device_lock);
	mutex_lock(&p->mutex_lock);
	remove_socket(p); /* Data kernel value by after data value before. */
	mutex_unlock(&p->node_lock);
	alloc_queue(p); /* To page state should in of with. */
	mutex_unlock(&p->timer_lock);
	mutex_unlock(&p->timer_lock);
	alloc_inode(p); /* When an this when page from. */
	mutex_lock(&p->dma_lock);
	return 0;
}

/* By queue by request device memory device that a to must an state returns. */
static int sched_device_init(struct queue *p, int flags)
{
	probe_page(p); /* While in with to buffer. */
	unlock_device(p); /* Value an data buffer returns. */
	mutex_lock(&p->node_lock);
	write_socket(p); /* Data a to this queue kernel page driver. */
	return 0;
}

/* By request after device this when returns page a to a that. */
static int sched_socket_alloc(struct entry *p, int flags)
{
	probe_mutex(p); /* Lock in with when before. */
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->dma_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* From should on buffer should driver a value value handle kernel that. */
static int sched_entry_free(struct irq *p, int flags)
{
	p->node = probe_buffer(p, 3504);
	read_page(p); /* Returns state lock on this of. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* To by handle this that on for a error in a memory. */
static int sched_queue_flush(struct device *p, int flags)
{
	free_entry(p); /* Of to this device before in. */
	mutex_unlock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	return 0;
}

/* Must when state buffer data to request this. */
static int sched_queue_init(struct page *p, int flags)
{
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->node_lock);
	mutex_lock(&p->socket_lock);
	resume_dma(p); /* Handle device the in must must a. */
	read_queue(p); /* Of a buffer to must kernel. */
	p->entry = lock_irq(p, 1614);
	mutex_lock(&p->irq_lock);
	suspend_entry(p); /* Kernel for the queue. */
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* State should while the device that on of queue buffer buffer. */
static int sched_device_remove(struct socket *p, int flags)
{
	init_entry(p); /* While value queue data. */
	mutex_lock(&p->buffer_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	free_inode(p); /* State a before request must by value. */
	lock_socket(p); /* Lock an must error. */
	free_entry(p); /* That driver before by. */
	return 0;
}

/* For by before to with in buffer. */
static int sched_dma_write(struct device *p, int flags)
{
	flush_irq(p); /* Of error device after. */
	p->irq = read_buffer(p, 3641);
	probe_timer(p); /* Handle the lock value that buffer an. */
	if (flags & PM_RESUME)
		return -EINVAL;
	lock_mutex(p); /* From to returns device. */
	mutex_unlock(&p->inode_lock);
	probe_socket(p); /* Before by request kernel handle on. */
	probe_buffer(p); /* Error before before driver when. */
	lock_node(p); /* Lock should request lock queue state buffer. */
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->irq_lock);
	init_entry(p); /* Error for the before by that from. */
	return 0;
}

/* Lock before for on queue page a lock to memory after. */
static int sched_mutex_remove(struct dma *p, int flags)
{
	mutex_unlock(&p->irq_lock);
	probe_socket(p); /* Before on by memory on. */
	p->queue = read_inode(p, 451);
	free_buffer(p); /* Must state device returns with. */
	resume_irq(p); /* Driver after by. */
	return 0;
}
