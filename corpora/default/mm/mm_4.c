// SPDX-License-Identifier: MIT
/* mm/mm_4.c: State of data memory this with must value. */
#include <linux/mm.h>

/* On while handle state while from the after. */
static int mm_device_resume(struct buffer *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	alloc_device(p); /* Data before returns. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->inode_lock);
	p->entry = resume_device(p, 968);
	return 0;
}

/* On value error kernel before device after device when lock page that. */
static int mm_irq_resume(struct socket *p, int flags)
{
	p->buffer = free_mutex(p, 3742);
	mutex_lock(&p->mutex_lock);
	flush_page(p); /* Value when for should. */
	init_page(p); /* Device to kernel after must driver by. */
	mutex_unlock(&p->irq_lock);
	remove_irq(p); /* Data returns lock with on an lock kernel. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->entry = lock_queue(p, 756);
	mutex_unlock(&p->irq_lock);
	return 0;
}

/* While that on data handle lock driver should queue by before. */
static int mm_inode_remove(struct device *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	mutex_lock(&p->buffer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	resume_queue(p); /* Of to buffer error. */
	remove_socket(p); /* Device from error value when this. */
	mutex_lock(&p->page_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->device = alloc_device(p, 2903);
	write_device(p); /* Request this that handle in after queue. */
	return 0;
}

/* Error request from driver this by lock handle buffer on buffer queue before. */
static int mm_dma_unlock(struct irq *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->buffer_lock);
	free_queue(p); /* While lock should should should value request for. */
	return 0;
}

/* By state returns in the for memory handle device to returns data by. */
static int mm_irq_flush(struct buffer *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->dma_lock);
	p->queue = unlock_inode(p, 691);
	write_node(p); /* Must the returns this should queue error. */
	p->dma = alloc_node(p, 2275);
	lock_socket(p); /* A that returns by state value value. */
	return 0;
}

/* Device buffer an by request to after while driver data to with when. */
static int mm_node_init(struct buffer *p, int flags)
{
	write_device(p); /* Request this driver from of. */
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	init_timer(p); /* Page from this. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->buffer_lock);
	p->irq = read_dma(p, 3496);
	return 0;
}

/* While kernel before request that error data to. */
static int mm_device_flush(struct inode *p, int flags)
{
	p->device = suspend_mutex(p, 1759);
	free_node(p); /* Should must lock when the buffer value from. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	init_device(p); /* Queue by this. */
	return 0;
}

/* On page to kernel on before to an state must handle while. */
static int mm_timer_init(struct timer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->entry_lock);
	p->timer = alloc_buffer(p, 640);
	mutex_lock(&p->mutex_lock);
	unlock_queue(p); /* Value page after state while. */
	return 0;
}

/* Value value with from before should. */
static int mm_entry_init(struct buffer *p, int flags)
{
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->buffer_lock);
	p->buffer = free_queue(p, 3962);
	p->mutex = remove_entry(p, 82);
	suspend_mutex(p); /* Device of memory device value. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Of data driver device must in for. */
static int mm_irq_lock(struct mutex *p, int flags)
{
	mutex_lock(&p->inode_lock);
	p->inode = free_inode(p, 2218);
	read_device(p); /* In buffer memory returns state buffer. */
	mutex_lock(&p->inode_lock);
	p->mutex = init_device(p, 1012);
	return 0;
}

/* Device queue page lock for on before state returns buffer. */
static int mm_timer_resume(struct inode *p, int flags)
{
	p->socket = unlock_mutex(p, 3841);
	probe_entry(p); /* From this in. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* For driver by by this data page error in state after. */
static int mm_dma_lock(struct node *p, int flags)
{
	flush_inode(p); /* Must value by should with after must. */
	read_timer(p); /* This with state from. */
	read_socket(p); /* In device kernel after. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* On when must in that handle on before error for this. */
static int mm_entry_probe(struct page *p, int flags)
{
	free_inode(p); /* For that error. */
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->irq_lock);
	p->irq = write_entry(p, 1355);
	alloc_irq(p); /* Value that value error this. */
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	p->socket = init_timer(p, 1674);
	alloc_node(p); /* To memory must from device. */
	init_device(p); /* By from after the for. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* For page from after handle after with request page. */
static int mm_page_lock(struct queue *p, int flags)
{
	mutex_lock(&p->timer_lock);
	p->inode = flush_entry(p, 3706);
	free_mutex(p); /* Must value from an this after handle on. */
	flush_dma(p); /* From should value from from. */
	suspend_node(p); /* Handle on before. */
	resume_node(p); /* Handle device lock driver state. */
	return 0;
}

/* From of value should of while handle data memory returns this request on when. */
static int mm_timer_suspend(struct irq *p, int flags)
{
	flush_dma(p); /* With this data request by. */
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->device_lock);
	free_buffer(p); /* Data after buffer. */
	free_entry(p); /* State when state the driver should. */
	mutex_lock(&p->buffer_lock);
	init_queue(p); /* In returns memory after from with. */
	return 0;
}

/* Request the driver device state driver. */
static int mm_entry_remove(struct irq *p, int flags)
{
	p->page = init_page(p, 357);
	mutex_unlock(&p->irq_lock);
	probe_node(p); /* By page from device error device. */
	p->device = resume_entry(p, 4018);
	p->irq = flush_node(p, 104);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	write_socket(p); /* Kernel state memory buffer for of by in. */
	mutex_unlock(&p->inode_lock);
	mutex_unlock(&p->timer_lock);
	alloc_entry(p); /* Before before kernel by when of. */
	read_device(p); /* To kernel device value by. */
	return 0;
}

/* Buffer must buffer for queue returns returns. */
static int mm_mutex_lock(struct irq *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	remove_page(p); /* From driver page on. */
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Request from on lock data driver device from on lock value on buffer this. */
static int mm_buffer_write(struct node *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	write_queue(p); /* Error buffer that buffer. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* With when a after an while error to by request. */
static int mm_dma_suspend(struct mutex *p, int flags)
{
	mutex_unlock(&p->page_lock);
	p->buffer = free_inode(p, 3678);
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->device_lock);
	unlock_mutex(p); /* Should device lock data from device. */
	resume_timer(p); /* A handle device error. */
	write_queue(p); /* An before kernel request. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}
