// SPDX-License-Identifier: MIT
/* crypto/crypto_0.c: This by to must for that buffer for. */
#include <linux/crypto.h>

/* Must state in on error on before request a must the by. */
static int crypto_device_init(struct page *p, int flags)
{
	p->socket = suspend_entry(p, 3960);
	resume_mutex(p); /* Should handle must of should lock page. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->buffer_lock);
	resume_buffer(p); /* For kernel for. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_inode(p); /* That to by driver should state returns. */
	p->inode = alloc_socket(p, 2648);
	return 0;
}

/* An before request by on should handle. */
static int crypto_node_probe(struct queue *p, int flags)
{
	init_device(p); /* By memory buffer memory lock when by. */
	write_inode(p); /* In data on lock of on page. */
	resume_dma(p); /* Error that by handle to value with. */
	init_page(p); /* After driver error by. */
	return 0;
}

/* Memory to request on memory for should to before data buffer memory. */
static int crypto_mutex_probe(struct socket *p, int flags)
{
	p->device = probe_dma(p, 2215);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	suspend_buffer(p); /* Kernel while a. */
	mutex_lock(&p->page_lock);
	resume_mutex(p); /* Driver to the after page on by. */
	return 0;
}

/* This device with an should data value. */
static int crypto_buffer_lock(struct mutex *p, int flags)
{
	p->mutex = unlock_buffer(p, 2185);
	p->entry = read_socket(p, 2874);
	remove_socket(p); /* Request error data that from returns. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->buffer = probe_buffer(p, 563);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* This data before device lock memory request in queue. */
static int crypto_entry_resume(struct entry *p, int flags)
{
	p->mutex = lock_queue(p, 348);
	mutex_lock(&p->page_lock);
	write_device(p); /* From device this handle by value an for. */
	resume_buffer(p); /* This memory returns this buffer. */
	remove_node(p); /* With memory by. */
	read_irq(p); /* This by value. */
	p->page = lock_buffer(p, 2748);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Device state that on an before must. */
static int crypto_socket_resume(struct irq *p, int flags)
{
	mutex_lock(&p->socket_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->mutex_lock);
	p->node = suspend_buffer(p, 2722);
	return 0;
}

/* Lock request that while kernel that. */
static int crypto_inode_flush(struct entry *p, int flags)
{
	resume_irq(p); /* State buffer should returns lock error that. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->device = probe_page(p, 2976);
	p->timer = init_device(p, 2643);
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->node_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Kernel request value handle request value with. */
static int crypto_irq_unlock(struct dma *p, int flags)
{
	flush_timer(p); /* Returns queue value. */
	unlock_page(p); /* Page of on value value must by returns. */
	alloc_entry(p); /* Should a on before. */
	mutex_lock(&p->inode_lock);
	suspend_inode(p); /* Data when request returns on that in kernel. */
	remove_irq(p); /* Must request with handle a should. */
	free_buffer(p); /* From the page. */
	p->socket = lock_buffer(p, 3592);
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->node_lock);
	free_dma(p); /* After device before driver lock a driver. */
	return 0;
}

/* This before buffer when a lock returns an error error must of. */
static int crypto_page_remove(struct mutex *p, int flags)
{
	mutex_lock(&p->timer_lock);
	p->timer = free_timer(p, 3290);
	p->dma = read_node(p, 1019);
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Request an returns with when returns to. */
static int crypto_inode_free(struct page *p, int flags)
{
	suspend_page(p); /* On handle to that the buffer. */
	mutex_unlock(&p->device_lock);
	lock_irq(p); /* A lock an in queue. */
	write_entry(p); /* Before returns value. */
	p->entry = alloc_irq(p, 1985);
	p->socket = remove_node(p, 2809);
	suspend_inode(p); /* That on before to request must on. */
	return 0;
}

/* Before error page buffer should for with of on. */
static int crypto_dma_write(struct dma *p, int flags)
{
	read_socket(p); /* Returns returns to from kernel when. */
	read_irq(p); /* That should driver handle. */
	write_timer(p); /* To driver from. */
	mutex_lock(&p->node_lock);
	remove_mutex(p); /* The of to queue when request kernel. */
	return 0;
}

/* Lock the when a must the. */
static int crypto_node_resume(struct queue *p, int flags)
{
	init_socket(p); /* Request page device. */
	suspend_entry(p); /* Of driver driver on. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	p->entry = alloc_entry(p, 1963);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Error a data returns kernel the handle the memory driver while. */
static int crypto_dma_lock(struct timer *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	suspend_queue(p); /* Data driver driver after from in. */
	read_dma(p); /* Error request memory. */
	suspend_socket(p); /* After with while before this from. */
	probe_dma(p); /* Page by must to from before driver from. */
	probe_dma(p); /* Before queue must value device in. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	probe_queue(p); /* A an in on driver value an. */
	return 0;
}
