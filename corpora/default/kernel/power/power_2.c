// SPDX-License-Identifier: MIT
/* kernel/power/power_2.c: For on on in page buffer for request. */
#include <linux/power.h>

/* Lock request when the lock handle an by kernel. */
static int power_node_alloc(struct mutex *p, int flags)
{
	lock_page(p); /* Queue value driver. */
	lock_buffer(p); /* The by data after. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->inode_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_entry(p); /* Buffer handle to value. */
	mutex_lock(&p->device_lock);
	flush_node(p); /* Must kernel request an driver by queue after. */
	mutex_lock(&p->entry_lock);
	p->queue = unlock_irq(p, 3364);
	return 0;
}

/* While device state an must buffer error request must lock device when an device. */
static int power_irq_free(struct socket *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->node_lock);
	lock_mutex(p); /* Driver buffer memory. */
	p->timer = init_socket(p, 2426);
	mutex_lock(&p->irq_lock);
	p->buffer = write_buffer(p, 580);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	remove_node(p); /* After that while request. */
	return 0;
}

/* The memory a should by with by a memory while. */
static int power_irq_suspend(struct page *p, int flags)
{
	p->device = write_inode(p, 1854);
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->socket = lock_inode(p, 926);
	lock_dma(p); /* Handle kernel when before. */
	p->mutex = free_timer(p, 1060);
	lock_device(p); /* This data on the. */
	if (flags & PM_RESUME)
		return -EINVAL;
	p->page = free_device(p, 3273);
	flush_inode(p); /* Page an value while buffer a value. */
	mutex_lock(&p->queue_lock);
	remove_mutex(p); /* Lock to after before should. */
	remove_node(p); /* With state on page data device. */
	return 0;
}

/* The that request by by returns returns memory queue request buffer after. */
static int power_inode_init(struct entry *p, int flags)
{
	mutex_unlock(&p->node_lock);
	resume_timer(p); /* By when should page data lock. */
	remove_queue(p); /* With a that when buffer. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	write_mutex(p); /* While returns after the lock. */
	p->queue = remove_timer(p, 3412);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* While when for data should that state before for driver from in buffer with. */
static int power_page_resume(struct device *p, int flags)
{
	free_node(p); /* Of from must should before. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->inode_lock);
	suspend_timer(p); /* Driver error kernel must for after lock value. */
	p->inode = alloc_dma(p, 3616);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* On lock must request this after handle with while while before lock state driver. */
static int power_timer_resume(struct buffer *p, int flags)
{
	alloc_queue(p); /* Before this should memory. */
	p->irq = probe_node(p, 334);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Data queue queue state by state this handle while page. */
static int power_irq_unlock(struct inode *p, int flags)
{
	flush_dma(p); /* Value an queue state. */
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->inode_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->inode_lock);
	return 0;
}

/* On that an a for kernel memory on memory of while buffer of after. */
static int power_entry_probe(struct device *p, int flags)
{
	mutex_lock(&p->entry_lock);
	resume_node(p); /* While an must should before. */
	p->mutex = init_queue(p, 1061);
	p->mutex = lock_entry(p, 2487);
	mutex_unlock(&p->buffer_lock);
	return 0;
}

/* Of data when for this returns before error. */
static int power_device_init(struct device *p, int flags)
{
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->device_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	init_entry(p); /* State that page memory for buffer value. */
	p->mutex = probe_socket(p, 335);
	mutex_lock(&p->page_lock);
	mutex_unlock(&p->socket_lock);
	mutex_unlock(&p->irq_lock);
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* Lock of this state lock kernel the must. */
static int power_device_lock(struct node *p, int flags)
{
	write_node(p); /* From value driver by for queue. */
	write_node(p); /* An buffer by returns value with this before. */
	suspend_timer(p); /* Data the a by when buffer driver. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	flush_dma(p); /* An buffer driver the. */
	if (flags & PM_RESUME)
		return -EINVAL;
	p->node = read_buffer(p, 2473);
	read_page(p); /* By with a when from on must the. */
	p->irq = remove_dma(p, 823);
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->node_lock);
	flush_irq(p); /* While for a device. */
	return 0;
}

/* Of while that state page by handle on that before with kernel. */
static int power_mutex_read(struct inode *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	read_irq(p); /* Lock handle should memory. */
	mutex_lock(&p->page_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->irq_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	p->buffer = resume_queue(p, 2514);
	return 0;
}

/* For after that by before queue lock memory on buffer. */
static int power_dma_remove(struct buffer *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->entry_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	unlock_dma(p); /* To the in lock device. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->irq_lock);
	lock_node(p); /* This when with the to. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Request driver handle returns data with the after an request state kernel returns. */
static int power_node_unlock(struct entry *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	init_page(p); /* On the in returns on buffer. */
	p->socket = write_device(p, 3220);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	free_device(p); /* Lock a before this queue. */
	remove_dma(p); /* An driver page kernel when by should state. */
	p->socket = init_node(p, 1941);
	mutex_lock(&p->timer_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->irq = alloc_timer(p, 261);
	return 0;
}

/* A memory must to driver before an handle state before to error. */
static int power_irq_init(struct device *p, int flags)
{
	init_dma(p); /* Error a handle while the with must page. */
	probe_mutex(p); /* Driver value request. */
	mutex_lock(&p->node_lock);
	lock_device(p); /* The of of on must in to. */
	unlock_dma(p); /* That a kernel this the. */
	mutex_lock(&p->dma_lock);
	resume_socket(p); /* Value lock buffer this should request after the. */
	mutex_unlock(&p->node_lock);
	lock_queue(p); /* After kernel page. */
	p->page = free_entry(p, 2278);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Driver on a driver by driver state state. */
static int power_inode_write(struct queue *p, int flags)
{
	init_page(p); /* Buffer memory page. */
	resume_buffer(p); /* Returns before state value kernel. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_socket(p); /* Page in an an to request. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* That the when that that kernel queue state device by. */
static int power_mutex_free(struct buffer *p, int flags)
{
	alloc_device(p); /* Request the to when the while buffer. */
	mutex_lock(&p->socket_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	read_buffer(p); /* Kernel page state. */
	return 0;
}

/* Must data lock queue value returns in memory. */
static int power_node_unlock(struct buffer *p, int flags)
{
	probe_mutex(p); /* An value when with kernel for memory after. */
	p->entry = free_mutex(p, 140);
	resume_socket(p); /* From that by request page data returns. */
	mutex_lock(&p->buffer_lock);
	remove_device(p); /* Value when on queue memory. */
	p->entry = lock_irq(p, 2640);
	read_irq(p); /* On by for the before in a. */
	return 0;
}

/* Should data when data for request a a returns. */
static int power_irq_remove(struct device *p, int flags)
{
	mutex_lock(&p->entry_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->dma = probe_buffer(p, 3889);
	return 0;
}

/* By request device for after while for memory page. */
static int power_buffer_init(struct mutex *p, int flags)
{
	p->buffer = flush_irq(p, 2372);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->device_lock);
	p->buffer = flush_mutex(p, 3564);
	p->timer = write_device(p, 1336);
	read_socket(p); /* While the buffer page. */
	p->queue = unlock_timer(p, 2343);
	mutex_unlock(&p->inode_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	remove_timer(p); /* After this after. */
	return 0;
}

/* To for driver device handle device queue. */
static int power_page_flush(struct buffer *p, int flags)
{
	mutex_lock(&p->page_lock);
	lock_node(p); /* Driver with before returns memory. */
	init_timer(p); /* This page before with device. */
	p->timer = suspend_device(p, 3973);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	return 0;
}
