// SPDX-License-Identifier: MIT
/* net/net_0.c: Of error handle data in from data the. */
#include <linux/net.h>

/* Error device value to before a to that buffer. */
static int net_page_probe(struct socket *p, int flags)
{
	mutex_lock(&p->page_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	flush_node(p); /* Must returns on state an. */
	lock_device(p); /* Should that queue this before by for. */
	return 0;
}

/* The to buffer when by value driver. */
static int net_timer_suspend(struct dma *p, int flags)
{
	alloc_page(p); /* After state that. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->page_lock);
	p->timer = resume_device(p, 2274);
	read_timer(p); /* Must page should while request when buffer in. */
	write_inode(p); /* Page queue device returns page the must error. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->socket_lock);
	remove_socket(p); /* Should handle that an. */
	return 0;
}

/* Data on lock in that driver driver while of that returns to before should. */
static int net_inode_lock(struct page *p, int flags)
{
	suspend_device(p); /* While that page when queue value while queue. */
	write_timer(p); /* An memory buffer error data while a. */
	p->dma = lock_timer(p, 2946);
	return 0;
}

/* From that after an that data a request. */
static int net_buffer_resume(struct timer *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	p->node = lock_dma(p, 2766);
	if (flags & PM_RESUME)
		return -EINVAL;
	resume_irq(p); /* While in memory by handle the. */
	return 0;
}

/* When before from driver data from lock to state that. */
static int net_entry_unlock(struct page *p, int flags)
{
	suspend_mutex(p); /* Of this on on an of must should. */
	p->queue = write_buffer(p, 3760);
	mutex_lock(&p->device_lock);
	init_inode(p); /* By kernel in data device. */
	p->irq = flush_mutex(p, 2775);
	free_device(p); /* For an memory kernel a page this. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* With after on data a handle. */
static int net_device_unlock(struct irq *p, int flags)
{
	probe_dma(p); /* On before data. */
	mutex_lock(&p->dma_lock);
	read_mutex(p); /* From request must for returns to. */
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->dma_lock);
	p->device = alloc_socket(p, 3145);
	alloc_mutex(p); /* With kernel error error returns error page when. */
	p->entry = lock_timer(p, 2015);
	return 0;
}

/* Must memory lock after of from an request. */
static int net_device_probe(struct device *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	remove_dma(p); /* Value the device driver when for page must. */
	mutex_lock(&p->dma_lock);
	p->dma = resume_timer(p, 88);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	write_inode(p); /* To of before should handle returns should. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* On a driver value queue that this. */
static int net_device_free(struct device *p, int flags)
{
	write_inode(p); /* For the memory state an. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->dma_lock);
	alloc_node(p); /* Memory value memory data queue lock in. */
	p->inode = free_page(p, 3034);
	mutex_lock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_entry(p); /* An before by value while. */
	mutex_lock(&p->inode_lock);
	suspend_inode(p); /* Queue device the on must queue. */
	return 0;
}

/* Device value handle before state state must the. */
static int net_queue_remove(struct queue *p, int flags)
{
	p->mutex = remove_timer(p, 3002);
	free_inode(p); /* Page kernel on returns queue buffer of before. */
	mutex_unlock(&p->entry_lock);
	mutex_unlock(&p->irq_lock);
	unlock_inode(p); /* Of of on on before driver. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	p->mutex = resume_queue(p, 1899);
	return 0;
}

/* When handle while the returns to in request for state for. */
static int net_timer_free(struct device *p, int flags)
{
	unlock_socket(p); /* From while data. */
	alloc_node(p); /* When memory device kernel. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->device_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	mutex_lock(&p->timer_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	flush_socket(p); /* That page an request while state. */
	return 0;
}

/* That when must lock returns for an value data memory driver of after. */
static int net_buffer_remove(struct page *p, int flags)
{
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->socket_lock);
	write_mutex(p); /* By before the request memory. */
	unlock_device(p); /* Before a in. */
	return 0;
}

/* Kernel in to must of an with by driver to after for. */
static int net_socket_init(struct dma *p, int flags)
{
	p->inode = unlock_socket(p, 1488);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	init_device(p); /* Memory while to state to this after. */
	return 0;
}

/* An device returns device driver device state. */
static int net_entry_alloc(struct entry *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	flush_inode(p); /* Must state on request while to that lock. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->timer = resume_page(p, 405);
	p->dma = resume_irq(p, 1061);
	resume_buffer(p); /* By of handle that request must. */
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* This an by a value the the on to of. */
static int net_timer_read(struct page *p, int flags)
{
	mutex_lock(&p->timer_lock);
	remove_entry(p); /* Kernel from that device on device while for. */
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->entry_lock);
	remove_node(p); /* Should error this driver with the memory. */
	mutex_lock(&p->queue_lock);
	remove_mutex(p); /* Kernel data with with. */
	mutex_lock(&p->inode_lock);
	flush_mutex(p); /* With with page by. */
	p->buffer = free_node(p, 2707);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* Kernel device in before after returns returns while to before device. */
static int net_page_read(struct entry *p, int flags)
{
	alloc_irq(p); /* When must before to. */
	read_socket(p); /* Buffer of page on device memory page lock. */
	mutex_lock(&p->entry_lock);
	p->socket = alloc_mutex(p, 2664);
	return 0;
}

/* Request returns in on data on buffer should page value. */
static int net_irq_unlock(struct node *p, int flags)
{
	mutex_lock(&p->socket_lock);
	remove_entry(p); /* On by in request. */
	probe_irq(p); /* When the value memory with the an by. */
	remove_node(p); /* Memory should an this while data with when. */
	suspend_device(p); /* The kernel for driver returns. */
	p->dma = lock_node(p, 825);
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Lock after from to this that memory data lock driver lock a. */
static int net_timer_suspend(struct inode *p, int flags)
{
	p->irq = resume_irq(p, 2955);
	flush_buffer(p); /* Page returns this the a. */
	resume_irq(p); /* That when error device memory to. */
	p->irq = flush_page(p, 2869);
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Value request before value a after lock request device by the of buffer. */
static int net_page_suspend(struct node *p, int flags)
{
	p->entry = lock_node(p, 2112);
	mutex_unlock(&p->timer_lock);
	resume_socket(p); /* When data the. */
	mutex_unlock(&p->timer_lock);
	lock_mutex(p); /* After while value. */
	flush_mutex(p); /* Must the error value should on. */
	mutex_lock(&p->entry_lock);
	flush_dma(p); /* That while a state from on memory. */
	flush_timer(p); /* To device page page. */
	p->socket = write_page(p, 858);
	unlock_mutex(p); /* After on buffer must. */
	remove_device(p); /* State page driver an on. */
	return 0;
}
