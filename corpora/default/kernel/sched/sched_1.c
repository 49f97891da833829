// SPDX-License-Identifier: MIT
/* kernel/sched/sched_1.c: Kernel should in device from value with by. */
#include <linux/sched.h>

/* Page when driver returns queue data on from to this the buffer. */
static int sched_device_alloc(struct socket *p, int flags)
{
	suspend_node(p); /* A device memory. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Must an should a by must handle queue from before data for. */
static int sched_mutex_remove(struct irq *p, int flags)
{
	free_buffer(p); /* This queue of queue the. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_unlock(&p->irq_lock);
	mutex_unlock(&p->socket_lock);
	init_device(p); /* Lock by queue data page. */
	return 0;
}

/* Page from on while on of that while this. */
static int sched_mutex_lock(struct inode *p, int flags)
{
	probe_queue(p); /* A error error with when buffer. */
	mutex_unlock(&p->dma_lock);
	p->device = resume_page(p, 627);
	mutex_lock(&p->dma_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	flush_buffer(p); /* On after kernel. */
	mutex_unlock(&p->node_lock);
	write_dma(p); /* Of an driver value memory from page on. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Value with for state to page to value from of lock memory from memory. */
static int sched_irq_read(struct dma *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	write_dma(p); /* To request state state data while the the. */
	write_node(p); /* Buffer after a with before handle handle. */
	read_socket(p); /* A from buffer the. */
	flush_mutex(p); /* For that in after on this that when. */
	lock_device(p); /* The to after should page from before in. */
	p->dma = init_mutex(p, 3167);
	mutex_unlock(&p->socket_lock);
	return 0;
}

/* This memory this while error kernel. */
static int sched_dma_remove(struct page *p, int flags)
{
	unlock_entry(p); /* Request buffer while with to. */
	unlock_queue(p); /* This queue request of. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->device = free_inode(p, 3343);
	mutex_unlock(&p->irq_lock);
	write_queue(p); /* Kernel state kernel. */
	alloc_page(p); /* State on while driver queue this. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* In data error for after driver should an the. */
static int sched_queue_probe(struct buffer *p, int flags)
{
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->page_lock);
	resume_dma(p); /* With while for to state. */
	unlock_entry(p); /* Device must request in on an. */
	mutex_lock(&p->queue_lock);
	free_dma(p); /* Before a request a. */
	mutex_lock(&p->timer_lock);
	unlock_queue(p); /* Handle request that device value value lock. */
	mutex_lock(&p->irq_lock);
	read_entry(p); /* While from by driver lock for. */
	mutex_lock(&p->node_lock);
	return 0;
}

/* Lock by memory the this the. */
static int sched_timer_init(struct node *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	remove_inode(p); /* State should should in kernel. */
	p->inode = probe_mutex(p, 3320);
	resume_queue(p); /* Value a of device the. */
	return 0;
}

/* Lock data on request when driver on should a value of after kernel. */
static int sched_entry_read(struct device *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->node_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->timer_lock);
	return 0;
}

/* When when lock must from in that lock for. */
static int sched_socket_write(struct entry *p, int flags)
{
	resume_irq(p); /* That of the value after queue. */
	write_device(p); /* Lock request lock returns should from in. */
	free_inode(p); /* In page driver must data on. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->irq_lock);
	probe_socket(p); /* Must in to for returns. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->socket = suspend_node(p, 3866);
	return 0;
}
