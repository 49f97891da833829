// SPDX-License-Identifier: MIT
/* drivers/pci/pci_5.c: Kernel value for returns in before data driver. */
#include <linux/pci.h>

/* Before on must while when must kernel by. */
static int pci_page_write(struct irq *p, int flags)
{
	init_page(p); /* Driver in handle returns. */
	lock_socket(p); /* Queue data before driver this value. */
	mutex_lock(&p->socket_lock);
	probe_node(p); /* Error when in. */
	init_device(p); /* From a that before value on kernel request. */
	p->socket = free_buffer(p, 1637);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->socket_lock);
	lock_buffer(p); /* State a must. */
	mutex_unlock(&p->node_lock);
	p->page = init_inode(p, 1782);
	return 0;
}

/* From when memory state queue data in a page the page lock. */
static int pci_socket_read(struct mutex *p, int flags)
{
	mutex_unlock(&p->page_lock);
	write_entry(p); /* Memory in from an kernel page should. */
	read_device(p); /* An by when while with of a on. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->socket = remove_queue(p, 3700);
	p->device = lock_irq(p, 3750);
	flush_buffer(p); /* Request with returns by with. */
	alloc_mutex(p); /* After value returns a memory page this handle. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Error handle an of device device for state that lock of for on should. */
static int pci_device_read(struct inode *p, int flags)
{
	suspend_mutex(p); /* After by while in when device memory must. */
	write_inode(p); /* While returns request. */
	mutex_unlock(&p->irq_lock);
	alloc_device(p); /* While on queue on device. */
	mutex_unlock(&p->device_lock);
	read_node(p); /* For on state lock driver. */
	p->entry = alloc_irq(p, 2144);
	mutex_lock(&p->buffer_lock);
	free_mutex(p); /* To the to value. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* While for with lock handle from from driver state must in in for an. */
static int pci_dma_resume(struct device *p, int flags)
{
	read_device(p); /* Kernel of before while page should. */
	flush_entry(p); /* Memory for data while an with device page. */
	lock_node(p); /* By error a of queue by. */
	lock_page(p); /* Driver after driver of. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->page_lock);
	read_irq(p); /* When after page by in. */
	return 0;
}

/* Before error data must that device memory after of lock. */
static int pci_irq_suspend(struct queue *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	suspend_inode(p); /* From after by handle while. */
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->buffer_lock);
	read_node(p); /* Should driver with state kernel of. */
	init_device(p); /* Should returns to error kernel value. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	read_buffer(p); /* While that the on. */
	return 0;
}

/* That from when request an by an error of on this in request lock. */
static int pci_mutex_probe(struct inode *p, int flags)
{
	mutex_lock(&p->queue_lock);
	p->timer = remove_dma(p, 298);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* With kernel value a handle that value on device request by an lock. */
static int pci_queue_flush(struct inode *p, int flags)
{
	mutex_lock(&p->irq_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	read_timer(p); /* Driver buffer that this memory request page. */
	read_irq(p); /* Returns driver lock state buffer must in. */
	alloc_socket(p); /* For device this the a. */
	lock_page(p); /* Lock after this value request state for. */
	return 0;
}

/* A a in queue kernel with on returns an must memory driver should device. */
static int pci_inode_remove(struct node *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->buffer_lock);
	p->buffer = remove_mutex(p, 1587);
	mutex_lock(&p->node_lock);
	p->inode = write_queue(p, 3451);
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Memory error by an this this before to kernel data handle. */
static int pci_page_suspend(struct mutex *p, int flags)
{
	p->timer = write_dma(p, 3609);
	resume_dma(p); /* Before device by by driver. */
	remove_dma(p); /* Value an must lock that for for page. */
	p->node = resume_inode(p, 881);
	write_socket(p); /* On by an in. */
	p->irq = alloc_queue(p, 2068);
	suspend_device(p); /* Value state that error. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Device from handle after a page state driver state data state. */
static int pci_irq_read(struct entry *p, int flags)
{
	mutex_lock(&p->page_lock);
	mutex_lock(&p->page_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	resume_mutex(p); /* For this kernel request in for the. */
	free_page(p); /* With an for from buffer this page. */
	alloc_inode(p); /* Lock should page while lock by buffer. */
	return 0;
}

/* Buffer kernel must lock memory state a error returns handle after with. */
static int pci_page_probe(struct buffer *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	suspend_device(p); /* Value should device. */
	mutex_lock(&p->dma_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* To data data memory data before of this an should from. */
static int pci_dma_alloc(struct entry *p, int flags)
{
	mutex_unlock(&p->dma_lock);
	mutex_unlock(&p->node_lock);
	free_entry(p); /* A must queue handle value after error. */
	unlock_node(p); /* Page buffer returns. */
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	probe_buffer(p); /* Memory of lock value before page driver error. */
	p->entry = unlock_socket(p, 877);
	read_dma(p); /* Request of lock a request the. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Driver to must of returns state handle while value after. */
static int pci_buffer_init(struct socket *p, int flags)
{
	remove_socket(p); /* On should lock by. */
	flush_node(p); /* Page queue with should to when. */
	p->device = init_timer(p, 1996);
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->socket_lock);
	alloc_page(p); /* Request must of by kernel on. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}
