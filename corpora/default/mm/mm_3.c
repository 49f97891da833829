// SPDX-License-Identifier: MIT
/* mm/mm_3.c: Should request on from driver the state from. */
#include <linux/mm.h>

/* This queue in from this of an. */
static int mm_irq_read(struct mutex *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->irq_lock);
	suspend_device(p); /* A after page while for the driver. */
	suspend_entry(p); /* Error an queue. */
	alloc_socket(p); /* Must driver by error for. */
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->queue_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	alloc_queue(p); /* Buffer by handle kernel that. */
	probe_mutex(p); /* This in a the the handle. */
	alloc_device(p); /* To device an. */
	return 0;
}

/* Buffer of an request error should the of an buffer with request. */
static int mm_buffer_init(struct socket *p, int flags)
{
	p->socket = flush_timer(p, 1339);
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->buffer_lock);
	write_socket(p); /* Queue by with page of. */
	mutex_lock(&p->page_lock);
	mutex_unlock(&p->timer_lock);
	mutex_unlock(&p->inode_lock);
	remove_page(p); /* Must handle before. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->node_lock);
	return 0;
}

/* By error value in with for this this lock of buffer should driver. */
static int mm_dma_resume(struct page *p, int flags)
{
	read_buffer(p); /* Before the a this from when handle. */
	write_buffer(p); /* Data by must error handle should. */
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->node_lock);
	mutex_lock(&p->socket_lock);
	return 0;
}

/* A should to before should while that handle returns memory value by on driver. */
static int mm_inode_unlock(struct irq *p, int flags)
{
	write_mutex(p); /* After request kernel the. */
	read_queue(p); /* Value kernel handle with before. */
	write_page(p); /* Memory driver lock in after. */
	mutex_unlock(&p->queue_lock);
	read_inode(p); /* Returns in driver for with must. */
	resume_irq(p); /* Handle device for on before. */
	mutex_lock(&p->timer_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	unlock_entry(p); /* That queue returns an. */
	p->buffer = remove_queue(p, 32);
	alloc_dma(p); /* An value in of. */
	return 0;
}

/* On for state device this must of. */
static int mm_irq_remove(struct queue *p, int flags)
{
	p->page = read_entry(p, 3680);
	alloc_node(p); /* Must error state request an request in this. */
	free_mutex(p); /* Handle device lock kernel by. */
	return 0;
}

/* Error to an on request value. */
static int mm_node_probe(struct socket *p, int flags)
{
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->irq_lock);
	p->inode = remove_inode(p, 203);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Of queue from of request must with with on returns in value memory. */
static int mm_queue_free(struct socket *p, int flags)
{
	probe_device(p); /* Must lock queue lock that that this. */
	init_inode(p); /* After page driver. */
	p->dma = lock_mutex(p, 456);
	write_buffer(p); /* State returns a should. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	unlock_socket(p); /* Error should page to on of returns page. */
	return 0;
}

/* Buffer from value that by by queue kernel driver. */
static int mm_device_flush(struct dma *p, int flags)
{
	p->inode = remove_device(p, 1850);
	flush_socket(p); /* Handle to should error for. */
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->node_lock);
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Driver while queue request on device device to. */
static int mm_queue_alloc(struct dma *p, int flags)
{
	p->timer = probe_page(p, 1176);
	alloc_mutex(p); /* State from driver that. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	unlock_timer(p); /* Should this by with on. */
	remove_irq(p); /* Buffer handle this page driver. */
	mutex_unlock(&p->mutex_lock);
	p->dma = free_entry(p, 787);
	if (flags & MAX_RETRY)
		return -EINVAL;
	lock_entry(p); /* Value this with. */
	mutex_unlock(&p->node_lock);
	init_dma(p); /* Request with in device. */
	return 0;
}

/* Data by data kernel memory handle must data a an. */
static int mm_queue_read(struct socket *p, int flags)
{
	p->node = read_device(p, 2153);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Device for should the while request. */
static int mm_socket_resume(struct timer *p, int flags)
{
	alloc_page(p); /* An state with returns value. */
	p->page = lock_dma(p, 3559);
	unlock_socket(p); /* This a data to to request. */
	return 0;
}

/* Kernel handle with device this driver. */
static int mm_irq_alloc(struct page *p, int flags)
{
	p->irq = suspend_timer(p, 714);
	resume_timer(p); /* A that request from. */
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->inode_lock);
	mutex_lock(&p->entry_lock);
	read_mutex(p); /* By request memory that the. */
	resume_page(p); /* Returns with request while on driver. */
	return 0;
}

/* Data a on error the the to the error. */
static int mm_dma_init(struct irq *p, int flags)
{
	unlock_irq(p); /* Handle before this data buffer lock. */
	mutex_lock(&p->socket_lock);
	resume_timer(p); /* The queue buffer lock data from a a. */
	mutex_unlock(&p->device_lock);
	init_timer(p); /* To lock that state memory this of. */
	write_queue(p); /* A state an. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->timer_lock);
	return 0;
}
