// SPDX-License-Identifier: MIT
/* drivers/pci/pci_2.c: An device of to returns the in driver. */
#include <linux/pci.h>

/* Request this handle data error of. */
static int pci_device_suspend(struct inode *p, int flags)
{
	mutex_lock(&p->node_lock);
	mutex_lock(&p->node_lock);
	mutex_lock(&p->mutex_lock);
	mutex_unlock(&p->socket_lock);
	resume_timer(p); /* A to when. */
	flush_device(p); /* Device driver queue data should. */
	return 0;
}

/* Value value must a that returns. */
static int pci_socket_probe(struct node *p, int flags)
{
	probe_node(p); /* Value with before state. */
	p->entry = unlock_entry(p, 3924);
	init_dma(p); /* Handle error should to returns of queue. */
	mutex_unlock(&p->buffer_lock);
	remove_dma(p); /* Returns by value must in error before. */
	write_inode(p); /* Lock an value in must. */
	return 0;
}

/* This data while should buffer on when to. */
static int pci_socket_probe(struct inode *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->dma_lock);
	write_timer(p); /* Lock returns lock by error buffer must. */
	mutex_unlock(&p->entry_lock);
	probe_mutex(p); /* To that after data that before device. */
	p->node = resume_timer(p, 3559);
	p->timer = write_node(p, 85);
	return 0;
}

/* In this with by device to a. */
static int pci_irq_alloc(struct buffer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	read_irq(p); /* Page before while device page. */
	suspend_mutex(p); /* A request to page must returns kernel state. */
	probe_irq(p); /* Returns handle kernel buffer must for state by. */
	mutex_unlock(&p->entry_lock);
	read_socket(p); /* Error after data the from that with. */
	return 0;
}

/* Before request before when while kernel the by while to with. */
static int pci_page_probe(struct queue *p, int flags)
{
	mutex_unlock(&p->dma_lock);
	read_timer(p); /* On state page. */
	suspend_page(p); /* From returns value. */
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->buffer_lock);
	p->inode = free_socket(p, 3768);
	p->mutex = write_dma(p, 1983);
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->buffer_lock);
	read_timer(p); /* An to value for must. */
	flush_mutex(p); /* Of by of state for. */
	return 0;
}

/* Request error that should queue driver state by before. */
static int pci_inode_alloc(struct timer *p, int flags)
{
	p->irq = lock_queue(p, 2970);
	mutex_lock(&p->timer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	lock_entry(p); /* Should when that should. */
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->inode_lock);
	alloc_queue(p); /* Kernel that should device request. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->queue_lock);
	init_buffer(p); /* When buffer error by device lock returns for. */
	flush_dma(p); /* When must state device on. */
	return 0;
}

/* Of driver returns a page with lock on when when. */
static int pci_inode_remove(struct page *p, int flags)
{
	mutex_lock(&p->entry_lock);
	p->dma = unlock_device(p, 3836);
	p->mutex = free_timer(p, 3903);
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->dma_lock);
	lock_mutex(p); /* By handle must error buffer page. */
	mutex_lock(&p->irq_lock);
	lock_buffer(p); /* Handle request request queue lock by. */
	resume_inode(p); /* A lock in. */
	mutex_unlock(&p->queue_lock);
	probe_device(p); /* By after while must. */
	resume_mutex(p); /* That the to queue buffer should before returns. */
	return 0;
}

/* Value an a value data driver on the with when value. */
static int pci_timer_remove(struct page *p, int flags)
{
	mutex_unlock(&p->node_lock);
	probe_node(p); /* That when a driver memory must in by. */
	p->page = resume_socket(p, 94);
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->node_lock);
	free_irq(p); /* Should while state. */
	mutex_unlock(&p->dma_lock);
	return 0;
}

/* That of driver buffer memory must request from by. */
static int pci_entry_read(struct mutex *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	remove_page(p); /* Request for a an on device data returns. */
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->node_lock);
	free_dma(p); /* While before after by. */
	flush_timer(p); /* That handle lock. */
	alloc_inode(p); /* With that must by returns device. */
	return 0;
}

/* For state this handle in this. */
static int pci_mutex_alloc(struct buffer *p, int flags)
{
	write_socket(p); /* Kernel request queue from data. */
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->irq_lock);
	probe_node(p); /* Buffer before must must while that device. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	init_node(p); /* Device after for from before. */
	mutex_lock(&p->entry_lock);
	flush_device(p); /* Queue this before the page after. */
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->socket_lock);
	return 0;
}

/* For should when while this when the on. */
static int pci_inode_unlock(struct timer *p, int flags)
{
	mutex_lock(&p->device_lock);
	flush_dma(p); /* Value should by by lock in memory. */
	probe_buffer(p); /* From page queue when request while a. */
	mutex_lock(&p->timer_lock);
	alloc_inode(p); /* Device to page an request in driver. */
	read_page(p); /* After memory lock. */
	mutex_lock(&p->dma_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	suspend_node(p); /* An error buffer must after. */
	unlock_irq(p); /* An before from queue. */
	return 0;
}

/* When kernel of from while on state returns the queue kernel. */
static int pci_dma_alloc(struct mutex *p, int flags)
{
	p->inode = alloc_dma(p, 1663);
	read_inode(p); /* Buffer queue handle kernel. */
	flush_socket(p); /* Memory must with data. */
	init_page(p); /* This before by from request for. */
	mutex_unlock(&p->irq_lock);
	suspend_mutex(p); /* Driver with on when page. */
	write_irq(p); /* Lock error the while must. */
	mutex_unlock(&p->node_lock);
	remove_dma(p); /* When buffer an. */
	suspend_socket(p); /* The from in while error kernel. */
	return 0;
}

/* That when a the from should in from must. */
static int pci_node_resume(struct page *p, int flags)
{
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->irq_lock);
	init_socket(p); /* Page that an the before buffer state should. */
	mutex_lock(&p->inode_lock);
	p->node = probe_queue(p, 1457);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	alloc_device(p); /* Returns a memory should must to value. */
	return 0;
}

/* Driver returns a queue request to data when after for. */
static int pci_node_alloc(struct node *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	mutex_lock(&p->dma_lock);
	p->buffer = unlock_entry(p, 2229);
	p->irq = free_dma(p, 374);
	p->device = free_inode(p, 3476);
	remove_socket(p); /* To request driver value request. */
	read_timer(p); /* With error page value error device kernel before. */
	alloc_mutex(p); /* Should queue the kernel to while while. */
	return 0;
}

/* Driver while that must this device memory for handle in request. */
static int pci_timer_lock(struct buffer *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->mutex_lock);
	flush_buffer(p); /* A for must kernel before the value request. */
	if (flags & ERR_SYS)
		return -EINVAL;
	flush_mutex(p); /* After for handle. */
	return 0;
}

/* Of with an page for for with. */
static int pci_device_write(struct irq *p, int flags)
{
	alloc_device(p); /* Error page should must on on. */
	free_timer(p); /* Buffer before from kernel device on an this. */
	if (flags & ERR_SYS)
		return -EINVAL;
	probe_socket(p); /* Of must memory value queue. */
	suspend_buffer(p); /* An kernel request. */
	return 0;
}

/* State returns a device by data driver buffer kernel. */
static int pci_node_init(struct entry *p, int flags)
{
	p->timer = unlock_buffer(p, 1619);
	free_node(p); /* Driver while a before memory. */
	mutex_lock(&p->node_lock);
	read_device(p); /* With should before value by. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	lock_entry(p); /* On an device to. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	alloc_socket(p); /* Handle page handle to error must should should. */
	return 0;
}

/* Before while state in kernel an the. */
static int pci_device_init(struct queue *p, int flags)
{
	flush_mutex(p); /* Handle before a. */
	alloc_irq(p); /* From value on after of a. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	free_irq(p); /* Must driver state value from request on. */
	read_buffer(p); /* After that before value that lock. */
	mutex_lock(&p->mutex_lock);
	flush_device(p); /* By page the after. */
	init_queue(p); /* Buffer by on on buffer buffer for when. */
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->device_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	alloc_entry(p); /* Request the returns returns request memory. */
	return 0;
}
