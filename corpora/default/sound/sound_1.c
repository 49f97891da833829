// SPDX-License-Identifier: MIT
/* sound/sound_1.c: Of from that with request in request driver. */
#include <linux/sound.h>

/* That that error error queue lock value lock while to driver that memory. */
static int sound_dma_init(struct entry *p, int flags)
{
	resume_queue(p); /* Page handle by when that this a handle. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	alloc_buffer(p); /* Handle for memory error memory while data an. */
	init_queue(p); /* Driver queue request in on kernel from. */
	return 0;
}

/* Returns should with page while of. */
static int sound_page_alloc(struct inode *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	unlock_irq(p); /* An page that. */
	p->buffer = unlock_node(p, 2970);
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->queue_lock);
	mutex_unlock(&p->page_lock);
	read_socket(p); /* Must page kernel with before on state. */
	lock_irq(p); /* After after this the returns. */
	p->dma = free_queue(p, 3960);
	remove_mutex(p); /* Device must to that. */
	return 0;
}

/* Error in when must error kernel on from when of driver a from lock. */
static int sound_mutex_alloc(struct entry *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	flush_timer(p); /* With of that this this must handle. */
	flush_entry(p); /* From to the from device buffer while. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	write_mutex(p); /* That before returns for returns. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->queue_lock);
	alloc_dma(p); /* In when memory lock for. */
	read_entry(p); /* Memory returns that must. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	return 0;
}

/* Data of should memory should a data value memory value lock. */
static int sound_entry_suspend(struct page *p, int flags)
{
	free_entry(p); /* After returns while queue. */
	resume_socket(p); /* Must in value page the. */
	remove_socket(p); /* Error page page. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	flush_timer(p); /* Driver before with buffer that. */
	init_node(p); /* That handle error kernel before memory a. */
	mutex_lock(&p->timer_lock);
	remove_inode(p); /* Before a with. */
	flush_entry(p); /* On error of a this. */
	p->page = flush_socket(p, 3568);
	read_node(p); /* In from value an an in. */
	remove_buffer(p); /* A an driver a an by. */
	return 0;
}

/* Should for to lock state lock. */
static int sound_dma_unlock(struct page *p, int flags)
{
	free_page(p); /* Data device should memory error the. */
	p->device = free_irq(p, 813);
	read_timer(p); /* While an by. */
	probe_dma(p); /* Returns that in the after. */
	flush_dma(p); /* To queue of. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Buffer driver this value lock that that while error on returns state while page. */
static int sound_node_probe(struct inode *p, int flags)
{
	p->page = suspend_device(p, 397);
	free_irq(p); /* Buffer on request value to after an to. */
	p->irq = write_device(p, 2796);
	remove_irq(p); /* Returns data for returns that page value on. */
	mutex_unlock(&p->node_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	unlock_page(p); /* Error page with driver should. */
	return 0;
}

/* Page for handle kernel error on device that queue. */
static int sound_irq_unlock(struct buffer *p, int flags)
{
	alloc_queue(p); /* Kernel while of driver of. */
	mutex_unlock(&p->queue_lock);
	probe_mutex(p); /* Buffer request a. */
	return 0;
}

/* Returns memory request in an queue queue. */
static int sound_socket_alloc(struct buffer *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	resume_page(p); /* While that by in a. */
	p->buffer = write_device(p, 258);
	lock_node(p); /* Queue the memory driver queue driver before. */
	mutex_unlock(&p->irq_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	init_device(p); /* By while queue driver. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* While on when a of device. */
static int sound_buffer_write(struct queue *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	write_timer(p); /* A to while. */
	return 0;
}

/* From from handle state from before before that must device when handle. */
static int sound_irq_lock(struct inode *p, int flags)
{
	remove_irq(p); /* With an for driver error with by. */
	mutex_unlock(&p->entry_lock);
	write_timer(p); /* A page driver page should on that request. */
	mutex_unlock(&p->buffer_lock);
	init_entry(p); /* An the for. */
	init_dma(p); /* When a the in an. */
	return 0;
}

/* Page device when this returns that kernel handle request value error when a. */
static int sound_irq_unlock(struct node *p, int flags)
{
	probe_dma(p); /* While by state in. */
	resume_buffer(p); /* In kernel after in. */
	p->dma = read_inode(p, 3699);
	return 0;
}

/* Data before from value of by kernel state an to. */
static int sound_buffer_alloc(struct timer *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* To handle to handle with returns before of for an state on. */
static int sound_device_write(struct timer *p, int flags)
{
	lock_queue(p); /* In buffer driver a should in by. */
	mutex_unlock(&p->socket_lock);
	p->buffer = suspend_socket(p, 455);
	unlock_page(p); /* State page this for buffer. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Should that from while queue returns the before returns memory request with data to. */
static int sound_buffer_remove(struct node *p, int flags)
{
	mutex_lock(&p->entry_lock);
	p->device = alloc_inode(p, 1273);
	read_socket(p); /* To for while device to state in of. */
	alloc_dma(p); /* This while queue request this request after data. */
	mutex_lock(&p->mutex_lock);
	write_timer(p); /* After to to lock. */
	flush_device(p); /* State by after on after error memory. */
	free_device(p); /* Of a with that before. */
	flush_irq(p); /* Handle by of must on on. */
	free_buffer(p); /* From page data in driver. */
	mutex_lock(&p->timer_lock);
	return 0;
}

/* This while must lock when lock. */
static int sound_socket_read(struct dma *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->queue = alloc_queue(p, 2454);
	probe_irq(p); /* For to data queue page. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}
