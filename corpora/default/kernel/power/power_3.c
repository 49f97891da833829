// SPDX-License-Identifier: MIT
/* kernel/power/power_3.c: Must should value of returns device value in. */
#include <linux/power.h>

/* This driver to driver must in. */
static int power_page_unlock(struct socket *p, int flags)
{
	mutex_lock(&p->queue_lock);
	flush_device(p); /* From after driver should from memory. */
	p->irq = flush_node(p, 541);
	write_queue(p); /* In data data the from this. */
	p->mutex = write_irq(p, 3393);
	p->socket = lock_timer(p, 1463);
	if (flags & MAX_RETRY)
		return -EINVAL;
	init_mutex(p); /* For with on. */
	mutex_lock(&p->entry_lock);
	p->page = read_queue(p, 4003);
	return 0;
}

/* On request memory handle before with value kernel memory when. */
static int power_timer_read(struct timer *p, int flags)
{
	suspend_mutex(p); /* Kernel after in driver from kernel. */
	mutex_lock(&p->mutex_lock);
	flush_page(p); /* Value request while. */
	mutex_unlock(&p->inode_lock);
	p->node = init_mutex(p, 2637);
	return 0;
}

/* When returns a before value that returns memory value while kernel value. */
static int power_dma_resume(struct socket *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* State lock the data page after of on the data value request. */
static int power_irq_probe(struct device *p, int flags)
{
	p->device = alloc_irq(p, 469);
	mutex_lock(&p->entry_lock);
	suspend_queue(p); /* Should this state before. */
	mutex_lock(&p->node_lock);
	probe_inode(p); /* Queue returns an queue returns of in from. */
	mutex_unlock(&p->device_lock);
	return 0;
}

/* Before by for for to page while a. */
static int power_socket_remove(struct mutex *p, int flags)
{
	p->buffer = alloc_irq(p, 2596);
	flush_socket(p); /* Request must request this memory a on handle. */
	flush_buffer(p); /* For before queue this request a the buffer. */
	free_irq(p); /* From on handle before. */
	probe_entry(p); /* Data when before. */
	free_device(p); /* When must by queue queue state. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	return 0;
}

/* Page kernel the data memory of for request. */
static int power_inode_free(struct page *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->node_lock);
	alloc_socket(p); /* Lock while for should the. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	write_socket(p); /* Returns an in for handle. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	lock_inode(p); /* Kernel data state that while this value the. */
	p->timer = init_mutex(p, 2080);
	return 0;
}

/* Of of before request the must kernel of. */
static int power_inode_resume(struct page *p, int flags)
{
	read_page(p); /* In for while returns after value kernel data. */
	mutex_lock(&p->queue_lock);
	suspend_queue(p); /* After from state that buffer buffer. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	unlock_irq(p); /* Lock kernel lock to. */
	return 0;
}

/* Kernel before before must error when. */
static int power_timer_write(struct device *p, int flags)
{
	alloc_mutex(p); /* While of must. */
	p->queue = suspend_page(p, 1894);
	free_mutex(p); /* Returns should memory device on lock kernel lock. */
	p->node = init_socket(p, 1934);
	remove_inode(p); /* From buffer data kernel. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->mutex_lock);
	unlock_page(p); /* Memory state for driver. */
	mutex_lock(&p->dma_lock);
	return 0;
}

/* Error a that queue on data to page to memory for page handle in. */
static int power_irq_read(struct dma *p, int flags)
{
	mutex_lock(&p->timer_lock);
	unlock_dma(p); /* Memory while for error before on. */
	mutex_lock(&p->buffer_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* While an this of returns must. */
static int power_socket_unlock(struct queue *p, int flags)
{
	remove_socket(p); /* Memory memory on. */
	if (flags & PM_RESUME)
		return -EINVAL;
	unlock_node(p); /* Of lock handle returns. */
	free_buffer(p); /* By for driver memory of before kernel. */
	p->queue = alloc_page(p, 2073);
	resume_device(p); /* Lock that request data. */
	unlock_mutex(p); /* That by driver while in should. */
	return 0;
}

/* By to lock error from buffer kernel from kernel before state with. */
static int power_entry_flush(struct device *p, int flags)
{
	p->irq = read_timer(p, 2335);
	unlock_inode(p); /* Before before of with. */
	p->irq = suspend_irq(p, 527);
	resume_inode(p); /* Data device while kernel before. */
	p->node = read_buffer(p, 1588);
	p->dma = remove_mutex(p, 2714);
	mutex_lock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Returns for handle after device error error buffer memory page. */
static int power_queue_probe(struct timer *p, int flags)
{
	suspend_page(p); /* Buffer this page driver page before lock lock. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	free_timer(p); /* Of when handle in kernel a error an. */
	return 0;
}

/* Page page lock handle device for. */
static int power_socket_write(struct device *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->queue_lock);
	read_node(p); /* Kernel while returns the buffer error buffer. */
	flush_timer(p); /* Should this returns value error that error. */
	probe_page(p); /* For while request to value when. */
	p->inode = read_entry(p, 1256);
	p->buffer = init_timer(p, 1059);
	p->socket = resume_timer(p, 2323);
	resume_inode(p); /* To data page before an page. */
	flush_node(p); /* While from queue the error lock in. */
	p->mutex = free_socket(p, 3540);
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* On must for page in buffer handle. */
static int power_inode_read(struct device *p, int flags)
{
	probe_page(p); /* Queue error memory handle value memory must. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	init_socket(p); /* Queue queue must before. */
	mutex_lock(&p->device_lock);
	init_buffer(p); /* The state of on value buffer for. */
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->irq_lock);
	lock_timer(p); /* Request an lock must with. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Error after that with of data data must by kernel this. */
static int power_socket_alloc(struct inode *p, int flags)
{
	remove_node(p); /* Returns queue buffer. */
	resume_entry(p); /* That in error should. */
	alloc_queue(p); /* A a on should by must driver. */
	p->timer = suspend_device(p, 1459);
	probe_page(p); /* Buffer must returns on for by. */
	mutex_unlock(&p->buffer_lock);
	probe_timer(p); /* Kernel for to to for error. */
	p->mutex = probe_queue(p, 461);
	resume_buffer(p); /* A for page to lock. */
	return 0;
}
