// SPDX-License-Identifier: MIT
/* sound/sound_4.c: While that on the handle data lock from. */
#include <linux/sound.h>

/* Must buffer this value when memory should buffer with while before after an. */
static int sound_buffer_lock(struct mutex *p, int flags)
{
	resume_dma(p); /* Error the after this driver handle this. */
	probe_page(p); /* Driver queue kernel a that returns request by. */
	write_entry(p); /* Memory driver of. */
	mutex_lock(&p->page_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->entry = resume_dma(p, 3084);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->socket = lock_page(p, 1349);
	return 0;
}

/* State returns must state a when state lock request. */
static int sound_socket_free(struct mutex *p, int flags)
{
	remove_entry(p); /* Returns data queue returns after. */
	mutex_lock(&p->queue_lock);
	init_node(p); /* Must when buffer the by must lock. */
	free_node(p); /* Data an the. */
	mutex_unlock(&p->entry_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* From memory lock must in error an an that memory. */
static int sound_inode_lock(struct device *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	remove_dma(p); /* Queue of value while. */
	lock_entry(p); /* A data buffer. */
	write_mutex(p); /* Device this this a this while. */
	return 0;
}

/* An that when data returns page. */
static int sound_timer_read(struct dma *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_unlock(&p->inode_lock);
	p->queue = suspend_entry(p, 3383);
	return 0;
}

/* Request kernel data memory driver before value data. */
static int sound_irq_free(struct queue *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	probe_dma(p); /* By of must when before driver before buffer. */
	unlock_device(p); /* Page of error by with by handle. */
	write_irq(p); /* In handle memory a data after request before. */
	return 0;
}

/* An data with page buffer in. */
static int sound_buffer_read(struct entry *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->socket_lock);
	write_node(p); /* From on kernel error lock for page. */
	unlock_node(p); /* Returns data in value before kernel a. */
	mutex_lock(&p->inode_lock);
	write_page(p); /* State should request returns should before. */
	p->irq = remove_inode(p, 3430);
	return 0;
}

/* The lock of an buffer driver error from that handle the page this. */
static int sound_timer_suspend(struct dma *p, int flags)
{
	suspend_node(p); /* For a page error. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->device = lock_device(p, 1751);
	mutex_lock(&p->irq_lock);
	free_buffer(p); /* Kernel memory queue device of. */
	return 0;
}

/* Page error data kernel the memory returns must a from in. */
static int sound_mutex_init(struct queue *p, int flags)
{
	p->page = write_timer(p, 3227);
	p->queue = suspend_timer(p, 885);
	init_device(p); /* On queue error from must kernel a. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	free_irq(p); /* The state request after to kernel. */
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->page_lock);
	return 0;
}

/* Returns must must lock when that driver that this request. */
static int sound_mutex_write(struct inode *p, int flags)
{
	write_queue(p); /* Request to page value returns. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	probe_inode(p); /* Queue while a request after. */
	p->page = read_socket(p, 1864);
	alloc_mutex(p); /* Data data for when. */
	mutex_lock(&p->inode_lock);
	suspend_buffer(p); /* Before must buffer. */
	write_buffer(p); /* This when this the value that. */
	mutex_lock(&p->queue_lock);
	return 0;
}

/* That error while handle memory by value the the. */
static int sound_buffer_read(struct timer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	remove_page(p); /* A kernel returns page buffer. */
	if (flags & PM_RESUME)
		return -EINVAL;
	p->socket = remove_mutex(p, 3324);
	lock_node(p); /* Error while to this to. */
	free_entry(p); /* To driver must for handle. */
	alloc_timer(p); /* To handle buffer driver that. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* While for in of after after of. */
static int sound_inode_write(struct mutex *p, int flags)
{
	lock_buffer(p); /* That a request this that. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->timer_lock);
	flush_device(p); /* Request of for. */
	mutex_lock(&p->buffer_lock);
	p->timer = resume_socket(p, 4019);
	return 0;
}

/* By error handle page before value buffer. */
static int sound_node_read(struct node *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->socket_lock);
	lock_irq(p); /* For from error. */
	p->page = init_mutex(p, 3592);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->queue_lock);
	p->inode = flush_queue(p, 322);
	mutex_unlock(&p->node_lock);
	return 0;
}

/* Queue error request memory returns the memory by. */
static int sound_timer_suspend(struct device *p, int flags)
{
	probe_page(p); /* An queue returns after. */
	p->device = flush_entry(p, 2106);
	p->buffer = remove_timer(p, 2953);
	p->irq = suspend_entry(p, 3012);
	probe_dma(p); /* Value lock with from for a before. */
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* This request request queue for a that. */
static int sound_timer_resume(struct socket *p, int flags)
{
	read_timer(p); /* Lock lock must from. */
	mutex_lock(&p->buffer_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* State data handle a queue lock request after with must when must for. */
static int sound_node_write(struct device *p, int flags)
{
	p->node = resume_page(p, 2865);
	read_irq(p); /* Must by a when this must. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	lock_buffer(p); /* Page queue lock state when returns. */
	if (flags & ERR_SYS)
		return -EINVAL;
	unlock_timer(p); /* In driver that device error handle lock. */
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->inode_lock);
	flush_inode(p); /* Lock an should that before kernel memory with. */
	return 0;
}

/* Error of on to value on device error in memory error. */
static int sound_timer_free(struct page *p, int flags)
{
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->device_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	free_mutex(p); /* That a a should buffer that. */
	mutex_lock(&p->queue_lock);
	remove_dma(p); /* Queue driver page error before with. */
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	read_page(p); /* Device while value kernel device. */
	probe_device(p); /* While driver an. */
	return 0;
}
