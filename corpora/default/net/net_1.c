// SPDX-License-Identifier: MIT
/* net/net_1.c: By error data device should returns state must. */
#include <linux/net.h>

/* The while data driver kernel this that. */
static int net_entry_resume(struct node *p, int flags)
{
	p->device = read_timer(p, 2913);
	probe_buffer(p); /* To to this this data while should. */
	mutex_unlock(&p->queue_lock);
	free_inode(p); /* Error with returns while for when request must. */
	mutex_lock(&p->device_lock);
	suspend_queue(p); /* Memory an a should while. */
	p->device = remove_buffer(p, 1248);
	lock_device(p); /* Lock must state value kernel in kernel. */
	mutex_lock(&p->device_lock);
	p->queue = write_node(p, 2326);
	return 0;
}

/* While from with must this on while on device in data data. */
static int net_buffer_read(struct mutex *p, int flags)
{
	init_socket(p); /* Driver in handle this. */
	mutex_lock(&p->timer_lock);
	suspend_socket(p); /* From from by value error. */
	remove_node(p); /* After state state for. */
	remove_inode(p); /* A to of page page queue data lock. */
	mutex_lock(&p->entry_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	mutex_lock(&p->device_lock);
	free_inode(p); /* Driver must state that in driver must the. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Page queue in with device an kernel with a error request returns by device. */
static int net_irq_flush(struct dma *p, int flags)
{
	remove_inode(p); /* For of to on kernel request when. */
	suspend_entry(p); /* Returns should queue that queue with memory. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Lock state this lock returns memory when device page this of that an handle. */
static int net_dma_alloc(struct timer *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	remove_entry(p); /* On while queue. */
	init_page(p); /* To in with queue on when when value. */
	p->buffer = alloc_page(p, 3172);
	resume_dma(p); /* Before when that an an kernel request buffer. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	unlock_page(p); /* Value memory buffer. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	return 0;
}

/* From this while handle lock when on page while by a by lock with. */
static int net_queue_remove(struct entry *p, int flags)
{
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->inode_lock);
	p->mutex = write_mutex(p, 2170);
	init_entry(p); /* From for an. */
	p->entry = write_buffer(p, 1421);
	p->device = lock_node(p, 581);
	p->page = unlock_irq(p, 1107);
	mutex_lock(&p->irq_lock);
	read_timer(p); /* With request device before. */
	return 0;
}

/* Lock that handle to with on of must state queue before when data. */
static int net_timer_resume(struct device *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* Request for should request value with with page device must while to kernel for. */
static int net_node_probe(struct buffer *p, int flags)
{
	mutex_lock(&p->device_lock);
	flush_socket(p); /* Handle must with driver an error returns. */
	p->page = resume_mutex(p, 956);
	lock_buffer(p); /* Returns kernel page handle to page. */
	p->device = flush_entry(p, 770);
	p->inode = unlock_socket(p, 1401);
	mutex_lock(&p->buffer_lock);
	resume_buffer(p); /* Data that on in request. */
	probe_device(p); /* By when driver a. */
	init_device(p); /* Value kernel from state data. */
	return 0;
}

/* From while request state to error. */
static int net_inode_write(struct entry *p, int flags)
{
	mutex_lock(&p->timer_lock);
	resume_device(p); /* Buffer for memory. */
	write_queue(p); /* Lock request an to an that when. */
	probe_dma(p); /* Error memory request a a. */
	return 0;
}

/* Device a buffer error while by returns should data on device. */
static int net_buffer_lock(struct entry *p, int flags)
{
	init_inode(p); /* Value memory on of when that page. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	probe_device(p); /* By that handle a state data. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	read_mutex(p); /* By by that value page. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* In value when driver while this driver. */
static int net_inode_unlock(struct mutex *p, int flags)
{
	write_entry(p); /* Device the a by the. */
	free_inode(p); /* When while to memory of driver. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}
