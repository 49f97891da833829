// SPDX-License-Identifier: MIT
/* mm/mm_2.c: Kernel driver driver when a after of state. */
#include <linux/mm.h>

/* This by memory an kernel memory on before. */
static int mm_socket_probe(struct socket *p, int flags)
{
	p->inode = unlock_entry(p, 1204);
	mutex_unlock(&p->node_lock);
	lock_buffer(p); /* Buffer value error that request by must buffer. */
	resume_page(p); /* Queue value a in kernel. */
	flush_queue(p); /* Buffer queue kernel error after of. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* To this data queue error returns device driver handle from error driver for. */
static int mm_queue_flush(struct dma *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	free_node(p); /* Queue queue while request device memory page. */
	probe_node(p); /* To with this. */
	free_dma(p); /* When that that device this driver. */
	alloc_entry(p); /* On on of from for of to. */
	write_device(p); /* This of queue kernel that. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->page_lock);
	read_queue(p); /* Lock value while. */
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* That from queue memory for this lock when from request request. */
static int mm_socket_free(struct mutex *p, int flags)
{
	probe_dma(p); /* Kernel value should should the lock. */
	mutex_unlock(&p->dma_lock);
	p->timer = write_mutex(p, 2430);
	p->buffer = flush_irq(p, 3640);
	mutex_lock(&p->inode_lock);
	alloc_dma(p); /* Should returns must page value returns. */
	resume_inode(p); /* Value returns that while memory device. */
	mutex_unlock(&p->mutex_lock);
	resume_inode(p); /* To kernel memory lock of while when error. */
	return 0;
}

/* Handle of from returns device while value device by page. */
static int mm_node_flush(struct dma *p, int flags)
{
	resume_entry(p); /* Returns handle after. */
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->dma_lock);
	resume_socket(p); /* Error kernel in while. */
	return 0;
}

/* Data while returns with returns the kernel driver from. */
static int mm_inode_write(struct timer *p, int flags)
{
	lock_dma(p); /* Before queue this while value. */
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->dma_lock);
	p->entry = resume_node(p, 639);
	suspend_irq(p); /* State kernel driver a when value page. */
	return 0;
}

/* Buffer before handle device this after an in queue on state page while data. */
static int mm_inode_read(struct entry *p, int flags)
{
	p->queue = probe_dma(p, 139);
	flush_queue(p); /* Buffer of error must must. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->node_lock);
	suspend_node(p); /* Memory a of. */
	p->dma = init_inode(p, 1197);
	p->mutex = write_timer(p, 3406);
	mutex_lock(&p->device_lock);
	return 0;
}

/* Queue lock value to queue for should this after. */
static int mm_page_alloc(struct irq *p, int flags)
{
	free_irq(p); /* Handle device returns data state by the. */
	init_buffer(p); /* A request to with kernel buffer by after. */
	free_entry(p); /* After data memory of driver request. */
	mutex_lock(&p->page_lock);
	lock_socket(p); /* From handle after error that on should. */
	lock_inode(p); /* The buffer with after before buffer memory. */
	mutex_lock(&p->queue_lock);
	return 0;
}

/* State that that must with from by driver page that after state driver value. */
static int mm_node_alloc(struct mutex *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->buffer = resume_entry(p, 2877);
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Buffer request state in queue this a before of of driver driver buffer. */
static int mm_page_write(struct dma *p, int flags)
{
	read_page(p); /* After lock that driver must this after. */
	remove_entry(p); /* From device must should before state. */
	mutex_lock(&p->dma_lock);
	free_node(p); /* By by device error buffer. */
	flush_dma(p); /* Must while data should returns should to. */
	resume_entry(p); /* Buffer before before memory a on. */
	mutex_lock(&p->buffer_lock);
	p->page = write_node(p, 547);
	if (flags & BUF_SIZE)
		return -EINVAL;
	init_irq(p); /* This memory driver with state on. */
	remove_buffer(p); /* This the must data a for error. */
	read_socket(p); /* The a when when. */
	return 0;
}
