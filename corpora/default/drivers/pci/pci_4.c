// SPDX-License-Identifier: MIT
/* drivers/pci/pci_4.c: Must page for request error before should with. */
#include <linux/pci.h>

/* Device driver handle error kernel kernel of queue while for. */
static int pci_timer_read(struct buffer *p, int flags)
{
	flush_dma(p); /* Buffer before when page while a in by. */
	mutex_lock(&p->dma_lock);
	read_page(p); /* State error memory. */
	probe_page(p); /* Of handle when in. */
	p->device = alloc_buffer(p, 1542);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	unlock_page(p); /* Driver for of an while kernel after page. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->inode_lock);
	p->socket = unlock_device(p, 2016);
	return 0;
}

/* Kernel an buffer request driver while state lock that on when to in for. */
static int pci_mutex_remove(struct inode *p, int flags)
{
	read_dma(p); /* In when page that. */
	mutex_lock(&p->node_lock);
	write_node(p); /* With returns while should before in. */
	flush_device(p); /* Request state handle the in error. */
	mutex_lock(&p->buffer_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	probe_device(p); /* Value device to state when should handle by. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* An on error after returns kernel. */
static int pci_device_flush(struct device *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	unlock_mutex(p); /* A that on driver. */
	alloc_queue(p); /* Value while lock when for. */
	lock_page(p); /* For in error an by of before the. */
	mutex_unlock(&p->queue_lock);
	mutex_lock(&p->entry_lock);
	p->queue = resume_node(p, 48);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* When a while for must from on that device state memory. */
static int pci_inode_resume(struct node *p, int flags)
{
	mutex_unlock(&p->buffer_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	read_node(p); /* Lock kernel of memory. */
	flush_queue(p); /* On kernel queue for device. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->mutex = suspend_dma(p, 1212);
	alloc_irq(p); /* When kernel buffer. */
	alloc_node(p); /* Driver of memory request handle must should kernel. */
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	remove_irq(p); /* Handle an value memory driver an. */
	return 0;
}

/* Queue after kernel to an page value queue before data memory. */
static int pci_inode_resume(struct device *p, int flags)
{
	unlock_socket(p); /* That driver with handle request by. */
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->device_lock);
	alloc_dma(p); /* An an that state returns after while. */
	mutex_lock(&p->device_lock);
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* A on page an in from should kernel by. */
static int pci_socket_alloc(struct mutex *p, int flags)
{
	mutex_lock(&p->device_lock);
	lock_dma(p); /* Data should of should after request. */
	lock_irq(p); /* Driver request kernel for. */
	p->entry = remove_queue(p, 650);
	mutex_lock(&p->node_lock);
	read_irq(p); /* Returns value must. */
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->socket_lock);
	write_dma(p); /* Buffer state from while the handle while before. */
	suspend_irq(p); /* Lock a with should lock state buffer queue. */
	mutex_unlock(&p->dma_lock);
	return 0;
}

/* In before of before to after an this before value memory with. */
static int pci_page_unlock(struct device *p, int flags)
{
	mutex_lock(&p->node_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->node = probe_device(p, 3719);
	suspend_node(p); /* State error while memory this handle buffer request. */
	mutex_unlock(&p->inode_lock);
	p->dma = alloc_socket(p, 2496);
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_buffer(p); /* Request in with to memory. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	remove_socket(p); /* Request memory after. */
	return 0;
}

/* Value that for queue lock must buffer handle in page from in that returns. */
static int pci_dma_alloc(struct buffer *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	lock_dma(p); /* In queue with. */
	mutex_unlock(&p->node_lock);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->page_lock);
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->dma_lock);
	alloc_node(p); /* For while kernel queue in. */
	write_irq(p); /* With while handle returns queue the after. */
	return 0;
}

/* Device by with of page when of on when. */
static int pci_timer_probe(struct irq *p, int flags)
{
	flush_irq(p); /* Driver after on request must state before. */
	mutex_unlock(&p->buffer_lock);
	alloc_irq(p); /* Memory must buffer lock. */
	mutex_unlock(&p->dma_lock);
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->queue_lock);
	unlock_dma(p); /* Queue to after. */
	mutex_lock(&p->socket_lock);
	p->page = suspend_dma(p, 3062);
	return 0;
}

/* On after must this returns handle of queue. */
static int pci_dma_lock(struct dma *p, int flags)
{
	write_timer(p); /* Lock value returns should to queue buffer for. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	free_dma(p); /* To lock error an page. */
	p->irq = init_irq(p, 2920);
	suspend_page(p); /* Value that a. */
	init_dma(p); /* Returns data request returns. */
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* Data page queue state page driver from queue must handle before to value on. */
static int pci_inode_suspend(struct timer *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_mutex(p); /* An with should after that an. */
	alloc_entry(p); /* A buffer buffer memory. */
	alloc_device(p); /* Queue queue state. */
	init_dma(p); /* Error from handle data after that memory of. */
	read_timer(p); /* State when the this a error the of. */
	p->timer = lock_node(p, 1727);
	flush_entry(p); /* This page kernel error that a with returns. */
	p->socket = lock_irq(p, 1645);
	p->timer = suspend_device(p, 3166);
	return 0;
}

/* By with queue returns handle while while device lock in request error when with. */
static int pci_dma_remove(struct node *p, int flags)
{
	flush_entry(p); /* Error with before. */
	p->entry = read_queue(p, 2813);
	mutex_lock(&p->queue_lock);
	init_mutex(p); /* Must buffer this buffer by. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->device_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* This memory page data with handle before an of should should. */
static int pci_buffer_read(struct entry *p, int flags)
{
	lock_socket(p); /* Buffer handle value to page. */
	resume_node(p); /* Should page after when driver. */
	if (flags & PM_RESUME)
		return -EINVAL;
	resume_mutex(p); /* To by driver queue this. */
	alloc_mutex(p); /* Request buffer when returns handle. */
	mutex_unlock(&p->node_lock);
	probe_entry(p); /* With should that when memory. */
	p->queue = flush_buffer(p, 403);
	mutex_lock(&p->dma_lock);
	return 0;
}

/* For handle device data the to to must an queue while on memory page. */
static int pci_socket_remove(struct device *p, int flags)
{
	p->device = suspend_node(p, 2541);
	remove_inode(p); /* An by kernel of while value. */
	resume_socket(p); /* Page on when while page request the. */
	p->queue = free_entry(p, 1391);
	p->mutex = resume_node(p, 415);
	return 0;
}

/* When request that for by returns value data page kernel to. */
static int pci_page_lock(struct inode *p, int flags)
{
	unlock_page(p); /* State queue with while lock. */
	mutex_lock(&p->dma_lock);
	p->queue = init_device(p, 1345);
	unlock_inode(p); /* With of after data while an error. */
	p->dma = resume_inode(p, 2186);
	p->inode = probe_queue(p, 80);
	p->entry = lock_inode(p, 614);
	mutex_lock(&p->device_lock);
	return 0;
}

/* An while memory state data returns must handle of queue. */
static int pci_inode_flush(struct dma *p, int flags)
{
	p->socket = lock_mutex(p, 1197);
	mutex_lock(&p->queue_lock);
	suspend_dma(p); /* After kernel error that. */
	mutex_lock(&p->dma_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* Lock by data should by device queue by. */
static int pci_dma_resume(struct inode *p, int flags)
{
	init_buffer(p); /* Handle after that that while. */
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}
