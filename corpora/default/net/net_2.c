// SPDX-License-Identifier: MIT
/* net/net_2.c: On this an must of must for state. */
#include <linux/net.h>

/* That kernel buffer page error a. */
static int net_timer_resume(struct device *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	init_timer(p); /* By after data after must with buffer from. */
	read_dma(p); /* When that with state with a before when. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	alloc_device(p); /* Should of by before when. */
	remove_dma(p); /* To a to data handle in. */
	mutex_lock(&p->buffer_lock);
	init_dma(p); /* Must an this driver to on. */
	free_page(p); /* That returns from returns. */
	return 0;
}

/* While on in a this to value driver of for must device queue. */
static int net_device_resume(struct page *p, int flags)
{
	suspend_device(p); /* After the with. */
	mutex_unlock(&p->irq_lock);
	free_buffer(p); /* By after while request. */
	return 0;
}

/* Driver for request value must request queue data before by. */
static int net_page_lock(struct mutex *p, int flags)
{
	probe_buffer(p); /* On returns this handle this error. */
	remove_entry(p); /* From for to for. */
	mutex_unlock(&p->mutex_lock);
	probe_page(p); /* This request lock page before on kernel when. */
	free_entry(p); /* The of after lock. */
	return 0;
}

/* Before that that by request from on handle must. */
static int net_buffer_probe(struct queue *p, int flags)
{
	init_device(p); /* Of memory an request buffer the before. */
	unlock_irq(p); /* Driver page this. */
	read_dma(p); /* After driver from of value returns. */
	read_mutex(p); /* From an should from. */
	mutex_lock(&p->page_lock);
	flush_irq(p); /* Returns the in value queue buffer queue to. */
	return 0;
}

/* After returns before lock page while. */
static int net_dma_resume(struct dma *p, int flags)
{
	p->timer = alloc_mutex(p, 2301);
	remove_mutex(p); /* The to driver an after memory. */
	mutex_lock(&p->node_lock);
	p->page = resume_timer(p, 3604);
	lock_page(p); /* From memory by of. */
	p->timer = write_buffer(p, 287);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->queue_lock);
	write_irq(p); /* After handle an an queue state an. */
	p->socket = lock_timer(p, 2158);
	return 0;
}

/* Page memory state for an memory a data this this should kernel state from. */
static int net_inode_probe(struct queue *p, int flags)
{
	p->inode = alloc_buffer(p, 109);
	lock_entry(p); /* From to device queue on. */
	init_buffer(p); /* Must while that state value buffer before. */
	resume_queue(p); /* Returns returns by by page when. */
	alloc_dma(p); /* By returns lock memory. */
	resume_socket(p); /* Value with while must. */
	mutex_lock(&p->queue_lock);
	unlock_socket(p); /* While driver an buffer. */
	mutex_unlock(&p->dma_lock);
	init_device(p); /* After of while after of handle to handle. */
	return 0;
}

/* Driver an on of state in from with on from from for must buffer. */
static int net_irq_unlock(struct dma *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->queue = flush_inode(p, 3054);
	p->socket = probe_mutex(p, 2467);
	mutex_unlock(&p->node_lock);
	mutex_unlock(&p->inode_lock);
	mutex_lock(&p->dma_lock);
	read_entry(p); /* Should must that of. */
	write_inode(p); /* Kernel while data error. */
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->node_lock);
	return 0;
}

/* Queue of before for from lock error when queue request after that that error. */
static int net_device_flush(struct page *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	free_buffer(p); /* With page error buffer of an page page. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->timer_lock);
	unlock_entry(p); /* Data kernel for by while value before by. */
	return 0;
}
