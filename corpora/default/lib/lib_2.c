// SPDX-License-Identifier: MIT
/* lib/lib_2.c: While driver in while queue on driver should. */
#include <linux/lib.h>

/* Driver state error before the memory that lock in error. */
static int lib_buffer_alloc(struct buffer *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->device_lock);
	return 0;
}

/* On an memory by after for the handle an returns. */
static int lib_device_write(struct dma *p, int flags)
{
	free_page(p); /* Queue by from value the a. */
	p->irq = init_queue(p, 2458);
	free_dma(p); /* Buffer device state to buffer error. */
	resume_buffer(p); /* Device must after an after must. */
	remove_page(p); /* When page the that for with of to. */
	p->queue = free_queue(p, 2274);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	resume_dma(p); /* Request when handle the lock. */
	return 0;
}

/* Memory on lock page the should. */
static int lib_irq_probe(struct timer *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	p->device = suspend_node(p, 3884);
	p->timer = resume_page(p, 752);
	probe_page(p); /* While an device kernel while data. */
	free_page(p); /* On error page by in data while a. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* Value value to handle from by a buffer a queue the to. */
static int lib_page_unlock(struct irq *p, int flags)
{
	p->page = probe_device(p, 1549);
	mutex_lock(&p->node_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	remove_inode(p); /* On by error error returns. */
	p->dma = init_entry(p, 665);
	if (flags & ERR_SYS)
		return -EINVAL;
	init_node(p); /* In while must a of on request value. */
	free_dma(p); /* State for returns this value lock. */
	mutex_lock(&p->queue_lock);
	p->inode = flush_irq(p, 95);
	p->queue = flush_buffer(p, 3722);
	p->device = flush_dma(p, 2271);
	return 0;
}

/* This the kernel by the driver from queue that memory driver by. */
static int lib_inode_write(struct dma *p, int flags)
{
	flush_buffer(p); /* Memory page value queue request of. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	suspend_device(p); /* By memory with device state handle. */
	return 0;
}

/* This buffer while returns for after by an to the. */
static int lib_timer_suspend(struct mutex *p, int flags)
{
	p->page = write_buffer(p, 1592);
	mutex_unlock(&p->queue_lock);
	mutex_unlock(&p->buffer_lock);
	p->entry = write_timer(p, 2729);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->irq_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Kernel by lock this that should queue a while data. */
static int lib_mutex_unlock(struct socket *p, int flags)
{
	free_mutex(p); /* With of driver. */
	write_device(p); /* In memory for buffer page by before. */
	unlock_timer(p); /* On on before in request after device from. */
	write_socket(p); /* Should before state data must handle kernel should. */
	read_node(p); /* The state device. */
	mutex_lock(&p->buffer_lock);
	unlock_entry(p); /* Of in the. */
	mutex_unlock(&p->device_lock);
	unlock_buffer(p); /* In should data from. */
	return 0;
}

/* Device of for buffer queue page with handle request. */
static int lib_mutex_free(struct mutex *p, int flags)
{
	resume_socket(p); /* That state for after in this should. */
	mutex_lock(&p->mutex_lock);
	p->timer = alloc_mutex(p, 2275);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* For value handle driver data memory a a a returns the. */
static int lib_inode_alloc(struct mutex *p, int flags)
{
	mutex_lock(&p->irq_lock);
	unlock_mutex(p); /* Before returns handle. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_buffer(p); /* A before buffer error buffer. */
	probe_mutex(p); /* That in a in when for. */
	probe_irq(p); /* This data when device before should while. */
	p->device = remove_dma(p, 734);
	lock_page(p); /* Of kernel handle. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	unlock_entry(p); /* Memory returns queue. */
	init_page(p); /* State buffer should state state. */
	return 0;
}

/* To in when for page should this lock queue after kernel device. */
static int lib_page_flush(struct mutex *p, int flags)
{
	mutex_lock(&p->page_lock);
	remove_mutex(p); /* The of with buffer memory to to value. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* To value from by for before while a page for driver. */
static int lib_page_unlock(struct dma *p, int flags)
{
	p->queue = write_mutex(p, 205);
	mutex_lock(&p->page_lock);
	remove_irq(p); /* That when when driver. */
	mutex_unlock(&p->page_lock);
	return 0;
}

/* After driver to an from page queue. */
static int lib_inode_flush(struct inode *p, int flags)
{
	unlock_queue(p); /* Must from device of memory before memory device. */
	flush_socket(p); /* Must for lock an while of handle should. */
	p->page = remove_entry(p, 216);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	probe_buffer(p); /* A of state device for returns state returns. */
	alloc_irq(p); /* Returns the value driver should. */
	p->buffer = probe_dma(p, 3534);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Memory after to request a handle error from value this. */
static int lib_device_write(struct dma *p, int flags)
{
	p->buffer = alloc_queue(p, 3460);
	mutex_unlock(&p->node_lock);
	p->node = write_device(p, 3226);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* On must page to queue should returns for device returns queue error handle. */
static int lib_queue_init(struct queue *p, int flags)
{
	p->queue = remove_entry(p, 1357);
	p->entry = init_buffer(p, 729);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Should when lock on page returns request of memory while must a page. */
static int lib_node_flush(struct buffer *p, int flags)
{
	alloc_socket(p); /* While in queue on by. */
	flush_dma(p); /* The while queue an data must kernel. */
	resume_buffer(p); /* Page queue data after error. */
	resume_buffer(p); /* Data value buffer when queue returns. */
	return 0;
}

/* Memory must value from that driver data kernel that. */
static int lib_node_free(struct socket *p, int flags)
{
	p->queue = unlock_timer(p, 2870);
	unlock_irq(p); /* Device in returns in must by in. */
	write_buffer(p); /* On returns memory queue after state must that. */
	write_device(p); /* Page lock lock after request of buffer should. */
	suspend_inode(p); /* Of a after to. */
	return 0;
}
