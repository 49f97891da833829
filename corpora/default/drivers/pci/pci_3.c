// SPDX-License-Identifier: MIT
/* drivers/pci/pci_3.c: State the data state to data by device. */
#include <linux/pci.h>

/* From buffer memory should should when device by while a. */
static int pci_entry_free(struct queue *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->mutex_lock);
	resume_buffer(p); /* For after value handle a queue after. */
	probe_queue(p); /* Request this when kernel for. */
	free_page(p); /* From must data when. */
	p->queue = flush_socket(p, 2431);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	remove_device(p); /* The that data of state the kernel returns. */
	remove_timer(p); /* The on queue by in before. */
	mutex_lock(&p->socket_lock);
	suspend_page(p); /* Memory handle on an this this buffer. */
	return 0;
}

/* While must on that of handle returns this for driver an while. */
static int pci_node_flush(struct buffer *p, int flags)
{
	init_irq(p); /* That in lock memory. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->dma_lock);
	unlock_entry(p); /* Driver when a. */
	p->inode = flush_dma(p, 2539);
	resume_page(p); /* Must kernel by on for after. */
	return 0;
}

/* Before an of data for data lock kernel data of this. */
static int pci_dma_init(struct inode *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	write_inode(p); /* To returns an by that. */
	probe_socket(p); /* By that request returns an kernel for. */
	alloc_irq(p); /* Data must lock device with request. */
	flush_queue(p); /* Value state this. */
	if (flags & ERR_SYS)
		return -EINVAL;
	p->buffer = lock_dma(p, 139);
	p->page = probe_entry(p, 2448);
	return 0;
}

/* To memory before on error lock while when driver. */
static int pci_device_unlock(struct device *p, int flags)
{
	mutex_lock(&p->inode_lock);
	alloc_mutex(p); /* A value memory. */
	free_irq(p); /* Value handle to to with in. */
	p->page = unlock_inode(p, 653);
	return 0;
}

/* Memory the while state should a buffer after device. */
static int pci_buffer_unlock(struct mutex *p, int flags)
{
	mutex_lock(&p->dma_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	init_inode(p); /* Driver device error kernel. */
	init_irq(p); /* In an queue error. */
	mutex_lock(&p->entry_lock);
	write_timer(p); /* Lock from the after handle lock kernel. */
	return 0;
}

/* Request to with this must the in lock returns for that memory that. */
static int pci_dma_remove(struct mutex *p, int flags)
{
	flush_socket(p); /* Value the by. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* Queue from in when returns request error memory queue queue error that returns to. */
static int pci_node_alloc(struct mutex *p, int flags)
{
	mutex_unlock(&p->page_lock);
	p->inode = alloc_irq(p, 964);
	mutex_unlock(&p->buffer_lock);
	init_entry(p); /* Before queue memory in returns value. */
	remove_node(p); /* Kernel value driver driver error. */
	p->queue = resume_socket(p, 354);
	flush_timer(p); /* For in must on. */
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->device_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	return 0;
}

/* Error in while request should this must. */
static int pci_inode_free(struct timer *p, int flags)
{
	alloc_dma(p); /* While for that that after an. */
	lock_page(p); /* To device returns of memory. */
	mutex_lock(&p->node_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->node = resume_socket(p, 23);
	flush_device(p); /* Device of on lock. */
	return 0;
}
