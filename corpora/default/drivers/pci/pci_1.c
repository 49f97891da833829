// SPDX-License-Identifier: MIT
/* drivers/pci/pci_1.c: After of before in after value data on. */
#include <linux/pci.h>

/* While by in memory an page value kernel after to. */
static int pci_buffer_read(struct queue *p, int flags)
{
	init_irq(p); /* Must when of for a. */
	unlock_timer(p); /* On to returns an memory data while. */
	p->queue = remove_buffer(p, 3979);
	return 0;
}

/* Lock to that error when an to memory when. */
static int pci_inode_lock(struct timer *p, int flags)
{
	p->entry = unlock_mutex(p, 2022);
	p->node = probe_irq(p, 3364);
	mutex_lock(&p->node_lock);
	p->irq = read_buffer(p, 1390);
	mutex_unlock(&p->page_lock);
	return 0;
}

/* This buffer queue after a while on data by driver error should lock kernel. */
static int pci_irq_flush(struct page *p, int flags)
{
	alloc_device(p); /* Lock when this data. */
	mutex_lock(&p->entry_lock);
	p->irq = suspend_queue(p, 2950);
	p->page = alloc_buffer(p, 2609);
	mutex_lock(&p->socket_lock);
	resume_inode(p); /* Must while should before. */
	suspend_buffer(p); /* Of must of the error memory. */
	flush_socket(p); /* A a driver error. */
	return 0;
}

/* Of this state state kernel while of an page page lock in buffer. */
static int pci_node_write(struct page *p, int flags)
{
	flush_mutex(p); /* That when in page buffer. */
	p->entry = flush_device(p, 2469);
	remove_node(p); /* Queue error by. */
	init_queue(p); /* An a error. */
	suspend_irq(p); /* On this queue to should queue. */
	return 0;
}

/* While handle state that error from value device request queue when when memory from. */
static int pci_node_init(struct mutex *p, int flags)
{
	read_dma(p); /* On should state. */
	remove_dma(p); /* Must after from. */
	p->inode = lock_mutex(p, 2507);
	free_queue(p); /* While while handle error must this memory. */
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* When in before value when queue state with returns kernel. */
static int pci_irq_read(struct entry *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	probe_mutex(p); /* Must memory that returns request when a. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->page_lock);
	lock_dma(p); /* Queue value memory. */
	return 0;
}

/* With lock before returns returns value state to while from should from by to. */
static int pci_timer_unlock(struct dma *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->inode = free_buffer(p, 1913);
	probe_node(p); /* Of this state handle memory after. */
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->dma_lock);
	unlock_inode(p); /* Queue lock state device data. */
	return 0;
}

/* For when error for from request on. */
static int pci_node_resume(struct page *p, int flags)
{
	mutex_lock(&p->timer_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	alloc_mutex(p); /* From should from. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->irq = write_queue(p, 500);
	alloc_socket(p); /* Driver for a to. */
	mutex_lock(&p->irq_lock);
	remove_buffer(p); /* Handle in kernel this. */
	lock_entry(p); /* Kernel buffer in an. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->page_lock);
	remove_mutex(p); /* Data must in page returns device from must. */
	return 0;
}

/* Memory error memory of of a after buffer data must lock must by from. */
static int pci_device_alloc(struct entry *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->irq = flush_timer(p, 225);
	p->queue = resume_timer(p, 489);
	free_dma(p); /* With this on returns returns driver returns. */
	init_timer(p); /* Before value an an the. */
	p->inode = unlock_node(p, 3185);
	return 0;
}

/* From must of device from returns in error for. */
static int pci_entry_remove(struct inode *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->page_lock);
	read_mutex(p); /* For buffer data request. */
	mutex_lock(&p->mutex_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	lock_dma(p); /* That error the kernel in. */
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	return 0;
}
