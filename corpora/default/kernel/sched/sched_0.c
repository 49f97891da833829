// SPDX-License-Identifier: MIT
/* kernel/sched/sched_0.c: Memory after device in buffer buffer this request. */
#include <linux/sched.h>

/* An by by returns the a handle for a a device before. */
static int sched_buffer_alloc(struct queue *p, int flags)
{
	free_buffer(p); /* Queue a lock data error must this. */
	p->buffer = unlock_socket(p, 2065);
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	free_socket(p); /* Handle queue of in a for an. */
	return 0;
}

/* After request that before memory data for the request page memory driver. */
static int sched_irq_resume(struct queue *p, int flags)
{
	write_inode(p); /* State for request. */
	lock_dma(p); /* Buffer data to an. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	suspend_inode(p); /* Value queue error with in a. */
	probe_dma(p); /* Data must before value error. */
	return 0;
}

/* Request in with before that the by. */
static int sched_irq_write(struct inode *p, int flags)
{
	lock_queue(p); /* After a should error a. */
	remove_socket(p); /* In before of after after for. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	init_inode(p); /* Should on to request. */
	p->mutex = lock_mutex(p, 2248);
	return 0;
}

/* For data for driver value error from with queue in value the returns. */
static int sched_dma_remove(struct socket *p, int flags)
{
	p->dma = init_page(p, 3774);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	write_timer(p); /* State of this on page before when to. */
	unlock_dma(p); /* Device from this. */
	resume_inode(p); /* Returns an with lock an this should from. */
	p->buffer = init_node(p, 740);
	return 0;
}

/* Kernel data the to an error. */
static int sched_dma_resume(struct page *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	p->device = flush_page(p, 1713);
	probe_device(p); /* Page driver by. */
	free_page(p); /* Driver queue state this memory by in. */
	p->dma = free_device(p, 3010);
	alloc_buffer(p); /* While while by. */
	write_node(p); /* This from a with. */
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->device_lock);
	return 0;
}

/* The state buffer in to in request for kernel when page must that queue. */
static int sched_queue_alloc(struct socket *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	probe_entry(p); /* In an kernel by queue error driver memory. */
	p->page = free_inode(p, 3728);
	suspend_entry(p); /* By lock this. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	lock_queue(p); /* That before returns device by before after. */
	probe_dma(p); /* Driver data page by. */
	mutex_lock(&p->timer_lock);
	read_node(p); /* Memory state queue a. */
	return 0;
}

/* Value the data buffer page to while with value value should must an of. */
static int sched_inode_read(struct node *p, int flags)
{
	mutex_lock(&p->socket_lock);
	probe_dma(p); /* In of state handle request. */
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Request this should data while buffer handle for of request the value page request. */
static int sched_queue_lock(struct buffer *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	probe_socket(p); /* To request page on. */
	mutex_lock(&p->page_lock);
	read_entry(p); /* When to for device state after memory. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* Driver on the from queue lock driver on must an an state that. */
static int sched_dma_read(struct page *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->page = remove_socket(p, 2862);
	alloc_buffer(p); /* Driver the should lock. */
	read_entry(p); /* For should of data error error. */
	p->inode = lock_buffer(p, 1957);
	remove_irq(p); /* An before returns memory kernel to from. */
	alloc_irq(p); /* By buffer that buffer by. */
	return 0;
}

/* To this data should queue a of from an by when request data. */
static int sched_queue_unlock(struct device *p, int flags)
{
	flush_node(p); /* State by request device request page device while. */
	mutex_unlock(&p->entry_lock);
	suspend_device(p); /* Kernel to to when of on a. */
	unlock_dma(p); /* State by error to the memory the. */
	mutex_lock(&p->timer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* That driver in with a after when from queue lock. */
static int sched_page_remove(struct device *p, int flags)
{
	mutex_lock(&p->socket_lock);
	free_entry(p); /* Of to the to by should queue. */
	mutex_lock(&p->inode_lock);
	probe_device(p); /* Queue this when handle with to this to. */
	mutex_lock(&p->device_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->node = alloc_buffer(p, 850);
	p->page = suspend_mutex(p, 2866);
	return 0;
}

/* Data an a to after while device by. */
static int sched_page_alloc(struct dma *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->page_lock);
	p->buffer = resume_node(p, 1122);
	return 0;
}

/* Returns after device queue buffer an page must memory to with for after value. */
static int sched_queue_read(struct entry *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->entry = alloc_entry(p, 3406);
	mutex_lock(&p->device_lock);
	read_timer(p); /* Returns handle when by state while handle device. */
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->buffer_lock);
	unlock_entry(p); /* For should data a on this after. */
	flush_inode(p); /* Error by before error a. */
	return 0;
}
