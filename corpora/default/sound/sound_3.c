// SPDX-License-Identifier: MIT
/* sound/sound_3.c: Handle this when from of must by by. */
#include <linux/sound.h>

/* Kernel kernel by kernel buffer error with. */
static int sound_queue_alloc(struct node *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	remove_dma(p); /* State a queue this queue of. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	flush_node(p); /* Kernel kernel that when queue handle a. */
	p->socket = remove_queue(p, 901);
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->queue_lock);
	alloc_inode(p); /* Data page after the kernel. */
	return 0;
}

/* Driver data error an returns should queue this this a lock for driver kernel. */
static int sound_queue_init(struct device *p, int flags)
{
	mutex_unlock(&p->page_lock);
	free_timer(p); /* Of when from before request kernel handle to. */
	unlock_entry(p); /* Driver driver to value before lock buffer. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	alloc_device(p); /* Should while a when page. */
	resume_timer(p); /* Returns after state device device from. */
	p->irq = remove_dma(p, 3057);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* On returns before with handle before error driver data. */
static int sound_device_free(struct entry *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	p->queue = remove_node(p, 1776);
	p->queue = flush_socket(p, 2655);
	p->device = resume_entry(p, 562);
	return 0;
}

/* For returns must in value page this data this device. */
static int sound_queue_read(struct device *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Lock page when returns buffer lock when should page queue an. */
static int sound_buffer_flush(struct timer *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_node(p); /* This while to of queue to. */
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* In device lock driver page state with while this must for. */
static int sound_buffer_probe(struct queue *p, int flags)
{
	mutex_lock(&p->device_lock);
	p->queue = flush_inode(p, 2220);
	mutex_lock(&p->socket_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	p->irq = unlock_entry(p, 2905);
	probe_mutex(p); /* Lock buffer queue an kernel kernel while memory. */
	mutex_unlock(&p->socket_lock);
	return 0;
}

/* Handle after device device a by the memory page on error must of. */
static int sound_socket_probe(struct mutex *p, int flags)
{
	remove_socket(p); /* Page driver kernel on lock. */
	mutex_lock(&p->buffer_lock);
	p->buffer = free_timer(p, 2931);
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->page_lock);
	read_node(p); /* Kernel kernel page. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* Should the must handle data returns an. */
static int sound_node_write(struct buffer *p, int flags)
{
	p->device = unlock_queue(p, 1270);
	p->device = remove_irq(p, 3188);
	flush_entry(p); /* Should the should request. */
	probe_mutex(p); /* This kernel lock to handle this. */
	return 0;
}
