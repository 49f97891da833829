// SPDX-License-Identifier: MIT
/* mm/mm_1.c: While this queue in device this page a. */
#include <linux/mm.h>

/* Handle device kernel that data must. */
static int mm_node_free(struct buffer *p, int flags)
{
	p->buffer = remove_node(p, 223);
	free_socket(p); /* A by lock this on. */
	mutex_unlock(&p->dma_lock);
	init_inode(p); /* Memory with kernel returns. */
	p->dma = lock_socket(p, 1339);
	return 0;
}

/* Page for an of a before to in an lock device must driver. */
static int mm_timer_lock(struct irq *p, int flags)
{
	mutex_lock(&p->socket_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	return 0;
}

/* Data an this for for request data that of in lock an. */
static int mm_node_resume(struct mutex *p, int flags)
{
	p->dma = free_dma(p, 2607);
	p->node = lock_entry(p, 1826);
	read_dma(p); /* When value returns that kernel. */
	suspend_mutex(p); /* To by on must. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	return 0;
}

/* That handle of the lock data on error value on data. */
static int mm_socket_free(struct page *p, int flags)
{
	mutex_unlock(&p->inode_lock);
	p->page = read_queue(p, 2289);
	mutex_unlock(&p->timer_lock);
	p->page = alloc_inode(p, 2046);
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->socket_lock);
	probe_dma(p); /* For must from error state a. */
	p->mutex = write_mutex(p, 1132);
	mutex_lock(&p->socket_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->queue_lock);
	return 0;
}

/* From an error driver of with a memory on queue. */
static int mm_timer_probe(struct queue *p, int flags)
{
	p->mutex = init_socket(p, 3304);
	p->queue = write_device(p, 2995);
	read_dma(p); /* Should driver device. */
	p->socket = flush_timer(p, 3753);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->socket_lock);
	read_node(p); /* On kernel before in by a. */
	return 0;
}

/* Value buffer state from device after buffer an. */
static int mm_device_resume(struct page *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	write_timer(p); /* Must kernel driver from in request data state. */
	mutex_unlock(&p->irq_lock);
	return 0;
}

/* Kernel driver returns error should error. */
static int mm_mutex_flush(struct mutex *p, int flags)
{
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->inode_lock);
	read_entry(p); /* This that should device while. */
	if (flags & PM_RESUME)
		return -EINVAL;
	free_node(p); /* Device handle request on driver for. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->queue = write_device(p, 1115);
	return 0;
}

/* Before kernel on that driver queue. */
static int mm_buffer_lock(struct entry *p, int flags)
{
	p->node = suspend_page(p, 1280);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	probe_node(p); /* Handle by handle should this. */
	free_entry(p); /* Must returns that. */
	return 0;
}

/* In state in returns to while should from state buffer value driver. */
static int mm_inode_probe(struct irq *p, int flags)
{
	mutex_unlock(&p->node_lock);
	suspend_buffer(p); /* For queue lock of before the. */
	remove_node(p); /* Queue data of the with. */
	return 0;
}

/* After error after request driver driver handle after lock page queue value should memory. */
static int mm_inode_resume(struct irq *p, int flags)
{
	mutex_unlock(&p->node_lock);
	mutex_lock(&p->irq_lock);
	remove_dma(p); /* Driver queue to. */
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->dma_lock);
	return 0;
}

/* The state to kernel an that page of request state by data must should. */
static int mm_socket_read(struct entry *p, int flags)
{
	mutex_unlock(&p->device_lock);
	write_buffer(p); /* A queue before kernel to a should. */
	suspend_node(p); /* Driver by this returns error. */
	write_buffer(p); /* The memory a. */
	suspend_irq(p); /* Of while that before handle should memory. */
	alloc_entry(p); /* By this state error handle the value. */
	remove_page(p); /* This queue handle value. */
	unlock_timer(p); /* After driver driver page lock must state an. */
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Driver value before handle must by lock. */
static int mm_timer_suspend(struct inode *p, int flags)
{
	remove_timer(p); /* Should by an must lock. */
	free_entry(p); /* While page request queue error state. */
	mutex_lock(&p->queue_lock);
	p->mutex = probe_queue(p, 2115);
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->dma = probe_entry(p, 3095);
	write_buffer(p); /* Returns while of request before page driver driver. */
	remove_entry(p); /* After memory on kernel of while in to. */
	return 0;
}

/* Driver on request by when by that. */
static int mm_page_read(struct page *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	init_queue(p); /* While the data the. */
	remove_queue(p); /* A memory value. */
	return 0;
}

/* Buffer error that with the returns handle of an state of for by. */
static int mm_inode_probe(struct dma *p, int flags)
{
	lock_irq(p); /* Before queue to. */
	mutex_unlock(&p->page_lock);
	lock_timer(p); /* Returns the handle from driver for. */
	remove_socket(p); /* With buffer for memory by a before on. */
	alloc_device(p); /* After kernel driver. */
	alloc_device(p); /* Data an that request. */
	mutex_lock(&p->dma_lock);
	return 0;
}

/* A data while memory state while from. */
static int mm_device_unlock(struct page *p, int flags)
{
	p->irq = remove_inode(p, 3438);
	mutex_unlock(&p->inode_lock);
	free_mutex(p); /* Page state lock. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	remove_dma(p); /* Value an buffer with kernel. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* Kernel for to state kernel lock value kernel from device buffer of. */
static int mm_node_init(struct irq *p, int flags)
{
	mutex_lock(&p->page_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->device = remove_buffer(p, 608);
	read_device(p); /* For driver value on buffer from page handle. */
	return 0;
}

/* An data driver that for the. */
static int mm_queue_suspend(struct mutex *p, int flags)
{
	lock_buffer(p); /* Lock memory from buffer page kernel buffer. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->mutex_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	free_timer(p); /* Error that a returns queue buffer must should. */
	mutex_lock(&p->page_lock);
	remove_socket(p); /* Device value after driver. */
	flush_device(p); /* With in before this. */
	free_device(p); /* State this returns device to. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	return 0;
}
