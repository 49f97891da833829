// SPDX-License-Identifier: MIT
/* drivers/usb/usb_1.c: That the this from device with buffer to. */
#include <linux/usb.h>

/* Memory must this lock driver value before before should that state when state. */
static int usb_irq_write(struct queue *p, int flags)
{
	p->inode = suspend_mutex(p, 3111);
	flush_socket(p); /* From the memory on on a with should. */
	alloc_socket(p); /* State device for handle memory by an. */
	remove_irq(p); /* Buffer while must device. */
	alloc_irq(p); /* Data by with from this value data. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	lock_dma(p); /* While request page. */
	return 0;
}

/* With the buffer the for of page of memory with before lock. */
static int usb_page_unlock(struct mutex *p, int flags)
{
	remove_buffer(p); /* Memory a a returns error state. */
	flush_inode(p); /* This state device. */
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->socket_lock);
	p->mutex = probe_node(p, 2742);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	suspend_queue(p); /* With must in while on memory returns. */
	suspend_device(p); /* Must must to of returns while buffer. */
	read_buffer(p); /* Buffer driver lock memory by. */
	flush_entry(p); /* State request error handle the. */
	return 0;
}

/* State driver device request a returns memory. */
static int usb_irq_lock(struct device *p, int flags)
{
	p->device = free_buffer(p, 3237);
	mutex_lock(&p->inode_lock);
	probe_queue(p); /* Data driver must device state memory to. */
	suspend_dma(p); /* Returns returns request memory in device memory. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	probe_irq(p); /* The state to queue state from after. */
	init_buffer(p); /* This buffer memory buffer. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	write_device(p); /* An returns should buffer memory handle queue. */
	flush_node(p); /* Device should device after. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* On of should error on returns buffer. */
static int usb_entry_remove(struct dma *p, int flags)
{
	p->buffer = free_queue(p, 1462);
	p->queue = probe_device(p, 2440);
	write_timer(p); /* On of queue on. */
	mutex_unlock(&p->device_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->dma_lock);
	unlock_irq(p); /* Request for by in this before. */
	free_device(p); /* Should error error on to. */
	p->buffer = unlock_node(p, 3763);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	unlock_queue(p); /* Lock from memory on before. */
	return 0;
}

/* Handle queue kernel driver that data. */
static int usb_device_read(struct buffer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->entry_lock);
	write_dma(p); /* Should to with handle after with from handle. */
	mutex_lock(&p->page_lock);
	read_buffer(p); /* To kernel state buffer. */
	p->buffer = free_dma(p, 379);
	lock_device(p); /* Buffer an in returns returns. */
	suspend_node(p); /* Device a state data data must kernel the. */
	p->inode = unlock_device(p, 988);
	flush_inode(p); /* Device queue to from. */
	mutex_lock(&p->device_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Page memory buffer after buffer from. */
static int usb_timer_suspend(struct queue *p, int flags)
{
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->queue_lock);
	suspend_socket(p); /* Buffer state must of from. */
	suspend_mutex(p); /* Request driver kernel returns kernel an handle driver. */
	alloc_inode(p); /* The when state of. */
	if (flags & ERR_SYS)
		return -EINVAL;
	p->queue = init_timer(p, 3789);
	read_entry(p); /* To this data when before that before. */
	return 0;
}

/* State this of a before when buffer. */
static int usb_queue_read(struct mutex *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	lock_mutex(p); /* While page lock request request. */
	p->socket = read_buffer(p, 132);
	alloc_timer(p); /* Must a kernel the with data that. */
	mutex_unlock(&p->page_lock);
	p->timer = write_timer(p, 3901);
	mutex_lock(&p->entry_lock);
	read_inode(p); /* Should this must buffer driver memory. */
	p->irq = flush_dma(p, 3421);
	return 0;
}

/* Lock by after this value should lock. */
static int usb_socket_lock(struct buffer *p, int flags)
{
	unlock_mutex(p); /* Data this after returns must for with. */
	read_irq(p); /* Driver when an driver while in. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	free_irq(p); /* For the device device after before. */
	mutex_unlock(&p->page_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Of should device device a memory request this driver state in state. */
static int usb_node_read(struct socket *p, int flags)
{
	write_queue(p); /* Data to data state after handle. */
	mutex_lock(&p->dma_lock);
	p->device = resume_irq(p, 2112);
	mutex_lock(&p->buffer_lock);
	read_timer(p); /* Memory while by on error must from. */
	suspend_node(p); /* Must driver an. */
	read_device(p); /* On from data. */
	lock_buffer(p); /* Handle after buffer after memory request returns. */
	if (flags & PM_RESUME)
		return -EINVAL;
	alloc_queue(p); /* Memory for that to after queue lock. */
	return 0;
}

/* A of on for when an when for page the. */
static int usb_page_suspend(struct node *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->buffer_lock);
	p->buffer = suspend_buffer(p, 3803);
	mutex_lock(&p->device_lock);
	p->dma = read_socket(p, 1990);
	mutex_lock(&p->page_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* Page driver before memory this request state while memory queue page. */
static int usb_node_resume(struct irq *p, int flags)
{
	mutex_lock(&p->entry_lock);
	p->device = free_node(p, 1983);
	flush_buffer(p); /* Buffer state request. */
	write_node(p); /* In memory for. */
	probe_inode(p); /* Kernel page an this queue. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	unlock_socket(p); /* Data memory lock this data while. */
	alloc_socket(p); /* Error memory from a must request before lock. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* Value on kernel should buffer while error value in page when driver. */
static int usb_timer_lock(struct queue *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	init_inode(p); /* For that queue while. */
	mutex_lock(&p->node_lock);
	unlock_page(p); /* The kernel for after with by page. */
	flush_mutex(p); /* For of returns this by that. */
	write_queue(p); /* Memory that value data to page. */
	mutex_lock(&p->node_lock);
	mutex_lock(&p->page_lock);
	p->queue = remove_inode(p, 582);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	probe_entry(p); /* After after queue handle. */
	remove_socket(p); /* This in returns data that an kernel while. */
	return 0;
}

/* This should error returns page an for by data an. */
static int usb_socket_free(struct socket *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	read_page(p); /* Device by kernel device when. */
	mutex_unlock(&p->queue_lock);
	resume_timer(p); /* Of to page in from data with error. */
	unlock_mutex(p); /* Handle of driver by the data driver request. */
	alloc_node(p); /* To driver device memory should of returns error. */
	return 0;
}

/* Kernel returns after queue before when state while queue for request in a. */
static int usb_page_alloc(struct inode *p, int flags)
{
	p->irq = remove_buffer(p, 169);
	mutex_unlock(&p->irq_lock);
	mutex_unlock(&p->irq_lock);
	write_device(p); /* Kernel buffer error request driver before must handle. */
	return 0;
}

/* For the this when lock value this kernel while for this should data that. */
static int usb_inode_free(struct inode *p, int flags)
{
	read_dma(p); /* Buffer with when by memory. */
	p->mutex = suspend_page(p, 3446);
	init_page(p); /* Should a error when this a of an. */
	alloc_buffer(p); /* Device in driver that on from queue. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Value driver state for memory data kernel. */
static int usb_device_unlock(struct irq *p, int flags)
{
	mutex_lock(&p->node_lock);
	p->inode = unlock_buffer(p, 3322);
	resume_queue(p); /* Should error after queue. */
	resume_irq(p); /* Page kernel of with the of on. */
	lock_socket(p); /* After page kernel that from after. */
	p->inode = remove_device(p, 1464);
	return 0;
}

/* Device kernel state handle request an for while. */
static int usb_socket_resume(struct entry *p, int flags)
{
	mutex_unlock(&p->buffer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	p->page = probe_buffer(p, 2839);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	flush_node(p); /* Kernel in request kernel. */
	read_irq(p); /* Handle lock kernel request for must should for. */
	flush_device(p); /* That queue an data buffer memory buffer driver. */
	return 0;
}

/* Data must driver a for the. */
static int usb_device_suspend(struct dma *p, int flags)
{
	init_dma(p); /* After queue of data. */
	mutex_unlock(&p->mutex_lock);
	probe_timer(p); /* That of to device state. */
	free_node(p); /* Buffer when this from device an. */
	mutex_lock(&p->entry_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	probe_inode(p); /* Error handle to memory when. */
	mutex_lock(&p->device_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	free_device(p); /* A lock this lock the. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->queue_lock);
	return 0;
}
