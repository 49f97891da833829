// SPDX-License-Identifier: MIT
/* lib/lib_5.c: Error value that in by device kernel error. */
#include <linux/lib.h>

/* Must should that of should that a in while on value. */
static int lib_node_free(struct timer *p, int flags)
{
	p->entry = suspend_inode(p, 1713);
	read_mutex(p); /* A an that. */
	flush_timer(p); /* After when when before lock of should device. */
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* While should page kernel lock data. */
static int lib_mutex_probe(struct device *p, int flags)
{
	mutex_lock(&p->timer_lock);
	p->queue = flush_queue(p, 1147);
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* A after device of a the data must. */
static int lib_page_flush(struct mutex *p, int flags)
{
	write_node(p); /* After value to while when before. */
	mutex_lock(&p->timer_lock);
	p->queue = lock_dma(p, 1674);
	alloc_device(p); /* Lock with in queue that must queue must. */
	mutex_lock(&p->entry_lock);
	resume_queue(p); /* By an must page a. */
	lock_irq(p); /* While must memory must value before while. */
	p->mutex = probe_node(p, 2021);
	mutex_lock(&p->device_lock);
	resume_dma(p); /* Page when an driver to. */
	return 0;
}

/* The page on state that by data lock after device when. */
static int lib_mutex_resume(struct socket *p, int flags)
{
	mutex_lock(&p->timer_lock);
	suspend_dma(p); /* Error request kernel by before by page driver. */
	mutex_lock(&p->timer_lock);
	lock_mutex(p); /* To from kernel queue should data. */
	mutex_unlock(&p->timer_lock);
	mutex_unlock(&p->buffer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	free_socket(p); /* In by queue. */
	flush_device(p); /* Queue kernel from driver value in queue. */
	return 0;
}

/* A that data from a in of in state should memory state. */
static int lib_node_unlock(struct node *p, int flags)
{
	read_dma(p); /* Request while kernel while the memory. */
	p->socket = lock_inode(p, 1375);
	if (flags & ERR_SYS)
		return -EINVAL;
	flush_queue(p); /* By before value while should after to. */
	free_queue(p); /* State when this of on before queue that. */
	free_inode(p); /* Of driver buffer the by with of. */
	remove_timer(p); /* In by a to. */
	unlock_page(p); /* For before for of device. */
	flush_dma(p); /* Kernel by on. */
	return 0;
}

/* An buffer returns the state when handle queue lock returns before memory. */
static int lib_socket_init(struct timer *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	remove_buffer(p); /* When the returns. */
	free_page(p); /* Of when buffer returns while after data. */
	free_socket(p); /* An this driver by. */
	p->dma = read_irq(p, 1732);
	p->queue = probe_timer(p, 2371);
	return 0;
}

/* Device that when lock in of from from kernel. */
static int lib_queue_remove(struct timer *p, int flags)
{
	suspend_queue(p); /* To should memory. */
	mutex_lock(&p->mutex_lock);
	p->dma = resume_inode(p, 2822);
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* Handle should request the error device an. */
static int lib_buffer_remove(struct buffer *p, int flags)
{
	p->socket = remove_device(p, 2782);
	flush_mutex(p); /* In must before. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	alloc_irq(p); /* Data state value data device page device. */
	mutex_lock(&p->entry_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* While of for driver should data returns handle. */
static int lib_page_suspend(struct mutex *p, int flags)
{
	free_irq(p); /* Driver before with while handle data by by. */
	lock_device(p); /* Page for in on. */
	mutex_unlock(&p->timer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_unlock(&p->irq_lock);
	free_device(p); /* From in must. */
	probe_irq(p); /* Lock before handle queue request with lock kernel. */
	unlock_mutex(p); /* Buffer handle of in from driver. */
	free_inode(p); /* Error error that of returns device. */
	return 0;
}

/* Should in buffer in this state in by. */
static int lib_device_resume(struct device *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	p->irq = flush_buffer(p, 3568);
	mutex_lock(&p->queue_lock);
	p->page = read_queue(p, 930);
	mutex_lock(&p->page_lock);
	resume_page(p); /* In before must memory that. */
	mutex_lock(&p->irq_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	probe_buffer(p); /* From a after while. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	return 0;
}

/* To buffer a the lock an error value handle value. */
static int lib_timer_remove(struct inode *p, int flags)
{
	write_timer(p); /* Memory page driver an on. */
	lock_buffer(p); /* That driver returns to to in. */
	free_mutex(p); /* With lock state to with of kernel. */
	read_buffer(p); /* While before kernel on lock after driver. */
	return 0;
}

/* A the before of page device with on by value with data state. */
static int lib_buffer_unlock(struct timer *p, int flags)
{
	p->node = unlock_queue(p, 1956);
	mutex_lock(&p->node_lock);
	probe_queue(p); /* Device before memory from while that of value. */
	return 0;
}

/* State an after before data the memory memory request. */
static int lib_mutex_flush(struct timer *p, int flags)
{
	init_irq(p); /* Returns when that in in the after buffer. */
	mutex_lock(&p->node_lock);
	init_mutex(p); /* Must page to the that this to to. */
	resume_mutex(p); /* While in must before for data that that. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->inode_lock);
	resume_device(p); /* This while should before data the the should. */
	flush_entry(p); /* Buffer value by. */
	probe_mutex(p); /* Request request the in. */
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->timer_lock);
	p->inode = suspend_page(p, 3829);
	return 0;
}

/* Lock to in an the on lock should request. */
static int lib_irq_flush(struct mutex *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->dma = read_mutex(p, 2726);
	p->device = flush_node(p, 3955);
	lock_mutex(p); /* Of page the this handle buffer error error. */
	mutex_lock(&p->page_lock);
	p->socket = write_dma(p, 673);
	mutex_lock(&p->socket_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	write_queue(p); /* Error in before queue from. */
	mutex_lock(&p->page_lock);
	free_inode(p); /* State by driver that. */
	return 0;
}
