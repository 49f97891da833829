// SPDX-License-Identifier: MIT
/* drivers/pci/pci_0.c: Of kernel kernel from data on in must. */
#include <linux/pci.h>

/* An by memory memory page when from handle when in the when. */
static int pci_timer_alloc(struct inode *p, int flags)
{
	mutex_unlock(&p->entry_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	probe_mutex(p); /* By request error error must memory. */
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->buffer_lock);
	flush_queue(p); /* State state for value after memory. */
	p->device = unlock_dma(p, 3149);
	free_page(p); /* That on a for for page memory. */
	suspend_dma(p); /* Memory memory queue. */
	alloc_inode(p); /* Memory from for for of returns error. */
	return 0;
}

/* Data must for while kernel kernel while after on. */
static int pci_irq_suspend(struct buffer *p, int flags)
{
	probe_inode(p); /* Before the the. */
	mutex_unlock(&p->queue_lock);
	unlock_mutex(p); /* Request page after this in value. */
	free_socket(p); /* Of with buffer before while an. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	unlock_node(p); /* In lock page in that data value. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	suspend_page(p); /* Page when an in to that. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	return 0;
}

/* That error returns state before before device memory page on this to when must. */
static int pci_timer_init(struct irq *p, int flags)
{
	lock_buffer(p); /* Lock lock from before device. */
	mutex_unlock(&p->socket_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	p->device = suspend_timer(p, 993);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->device_lock);
	unlock_socket(p); /* Page for should. */
	mutex_lock(&p->entry_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* Driver should value device handle value with. */
static int pci_device_write(struct dma *p, int flags)
{
	read_buffer(p); /* Buffer data on queue returns handle returns. */
	lock_device(p); /* The when page data should when the. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* Memory when that an before in kernel. */
static int pci_device_remove(struct dma *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	flush_timer(p); /* After in the in buffer this by kernel. */
	init_buffer(p); /* That value an after to from. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_irq(p); /* The data state that device request after memory. */
	mutex_lock(&p->dma_lock);
	write_queue(p); /* This returns error in the. */
	return 0;
}

/* By to driver page while page from the memory. */
static int pci_timer_flush(struct buffer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	probe_device(p); /* In device device lock this. */
	p->inode = read_queue(p, 3965);
	resume_inode(p); /* The must error an after. */
	init_irq(p); /* An must before. */
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->page_lock);
	return 0;
}

/* By before in by on kernel of request request handle value should on queue. */
static int pci_page_resume(struct irq *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	suspend_node(p); /* Device queue memory by kernel the by. */
	suspend_entry(p); /* Buffer to memory should. */
	mutex_lock(&p->page_lock);
	suspend_timer(p); /* That for returns for. */
	remove_inode(p); /* Buffer that before for to while for. */
	suspend_timer(p); /* Lock with to to. */
	return 0;
}

/* Request on a buffer this memory when request returns from by driver in data. */
static int pci_irq_init(struct page *p, int flags)
{
	p->inode = probe_mutex(p, 2725);
	p->page = lock_page(p, 3786);
	flush_node(p); /* Driver a this handle error. */
	suspend_inode(p); /* Buffer buffer should queue when in. */
	mutex_lock(&p->page_lock);
	lock_queue(p); /* This should when. */
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	flush_mutex(p); /* Before lock buffer of to error for when. */
	mutex_lock(&p->timer_lock);
	return 0;
}
