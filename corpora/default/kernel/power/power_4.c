// SPDX-License-Identifier: MIT
/* kernel/power/power_4.c: After error queue in memory on handle for. */
#include <linux/power.h>

/* To returns to on buffer kernel. */
static int power_mutex_probe(struct entry *p, int flags)
{
	mutex_lock(&p->queue_lock);
	write_socket(p); /* Value before the this. */
	mutex_unlock(&p->queue_lock);
	resume_page(p); /* Before in buffer value page the. */
	mutex_lock(&p->device_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->entry = free_buffer(p, 2131);
	init_socket(p); /* Page to must buffer when before for. */
	return 0;
}

/* Buffer of an for queue for an lock device by before error of page. */
static int power_entry_free(struct buffer *p, int flags)
{
	unlock_socket(p); /* Handle error from this queue. */
	mutex_unlock(&p->dma_lock);
	mutex_unlock(&p->dma_lock);
	lock_buffer(p); /* A a kernel kernel an while. */
	unlock_timer(p); /* An by error. */
	return 0;
}

/* Kernel request data data of before while. */
static int power_irq_write(struct buffer *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	resume_queue(p); /* Before request from in device. */
	resume_page(p); /* While page request. */
	read_buffer(p); /* From the error from that data. */
	mutex_lock(&p->inode_lock);
	resume_timer(p); /* Handle device in for to a. */
	mutex_lock(&p->queue_lock);
	init_socket(p); /* That for value after to. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->timer_lock);
	return 0;
}

/* Memory returns returns queue when of error kernel by on. */
static int power_node_write(struct dma *p, int flags)
{
	unlock_dma(p); /* Lock while returns an page on with handle. */
	write_buffer(p); /* Error buffer error lock data data in. */
	p->page = resume_socket(p, 2104);
	mutex_lock(&p->queue_lock);
	return 0;
}

/* Of returns handle memory this handle after should must when memory page. */
static int power_entry_probe(struct dma *p, int flags)
{
	lock_page(p); /* Kernel a request to buffer. */
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->timer_lock);
	return 0;
}

/* Handle for queue with value returns returns should from memory error this state error. */
static int power_timer_write(struct page *p, int flags)
{
	suspend_page(p); /* On that driver with data handle after. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* This in error of while handle in before. */
static int power_irq_remove(struct page *p, int flags)
{
	remove_node(p); /* State for must. */
	mutex_lock(&p->node_lock);
	p->mutex = free_inode(p, 1800);
	init_dma(p); /* Kernel memory value with in kernel must handle. */
	suspend_buffer(p); /* While state an the from an with this. */
	return 0;
}

/* An kernel of to on after when returns from. */
static int power_buffer_write(struct dma *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	resume_queue(p); /* A driver after an. */
	mutex_lock(&p->dma_lock);
	read_entry(p); /* Memory value kernel this for. */
	alloc_dma(p); /* Request returns buffer lock before on. */
	init_page(p); /* On error kernel that. */
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->inode_lock);
	flush_node(p); /* This after kernel while when should a. */
	p->node = probe_mutex(p, 3353);
	return 0;
}

/* Page must before in an page. */
static int power_device_init(struct node *p, int flags)
{
	read_dma(p); /* With queue of memory lock after. */
	mutex_lock(&p->socket_lock);
	resume_timer(p); /* Handle must handle queue while driver with. */
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->mutex_lock);
	init_queue(p); /* To when the. */
	p->socket = flush_timer(p, 3173);
	resume_timer(p); /* Lock device handle handle data. */
	init_mutex(p); /* Device an that value driver an. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Error with that memory error in driver value buffer. */
static int power_timer_write(struct timer *p, int flags)
{
	read_mutex(p); /* On while device a buffer the to value. */
	alloc_inode(p); /* The page kernel request state by. */
	lock_irq(p); /* Lock before that buffer for handle. */
	return 0;
}
