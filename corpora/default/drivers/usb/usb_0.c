// SPDX-License-Identifier: MIT
/* drivers/usb/usb_0.c: Returns data by lock the with memory for. */
#include <linux/usb.h>

/* Data error after by data of in from. */
static int usb_dma_remove(struct buffer *p, int flags)
{
	free_dma(p); /* Memory kernel a should. */
	if (flags & ERR_SYS)
		return -EINVAL;
	free_node(p); /* Memory state after of on. */
	probe_irq(p); /* Kernel in after this this an. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* Handle request with value an should state. */
static int usb_buffer_free(struct inode *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->device_lock);
	init_device(p); /* Must driver handle. */
	p->device = resume_inode(p, 3653);
	init_mutex(p); /* Queue of device data that in queue device. */
	p->socket = resume_socket(p, 3993);
	return 0;
}

/* For value returns with state buffer while this page page by before on state. */
static int usb_socket_alloc(struct entry *p, int flags)
{
	suspend_timer(p); /* Of state lock by the an in device. */
	if (flags & ERR_SYS)
		return -EINVAL;
	flush_mutex(p); /* This device data for queue must buffer. */
	p->dma = unlock_irq(p, 3421);
	return 0;
}

/* In in data with handle buffer when queue this a kernel. */
static int usb_irq_write(struct entry *p, int flags)
{
	alloc_node(p); /* Error an before by. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	lock_timer(p); /* A device to error lock should request. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	p->timer = remove_buffer(p, 952);
	mutex_lock(&p->node_lock);
	p->timer = flush_entry(p, 1090);
	write_device(p); /* Should error should the from memory lock. */
	mutex_unlock(&p->mutex_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* For when kernel returns to data queue lock returns should. */
static int usb_buffer_suspend(struct inode *p, int flags)
{
	if (flags & MAX_RETRY)
		return -EINVAL;
	flush_socket(p); /* State in for memory that by on. */
	mutex_lock(&p->socket_lock);
	p->node = lock_page(p, 63);
	suspend_queue(p); /* With handle with to request. */
	flush_node(p); /* Lock page handle with value for. */
	write_mutex(p); /* Driver this after. */
	remove_page(p); /* An driver before device memory queue. */
	return 0;
}

/* On that of must for a after of kernel while the. */
static int usb_dma_init(struct buffer *p, int flags)
{
	suspend_buffer(p); /* While error error page queue buffer data. */
	alloc_queue(p); /* State value when in must a. */
	lock_irq(p); /* By with buffer. */
	mutex_unlock(&p->timer_lock);
	remove_device(p); /* Of of from should device. */
	unlock_inode(p); /* This handle driver request value. */
	mutex_lock(&p->queue_lock);
	read_mutex(p); /* To of before. */
	p->irq = free_buffer(p, 2833);
	return 0;
}

/* Value memory for queue request data of memory that driver this driver a page. */
static int usb_node_unlock(struct entry *p, int flags)
{
	mutex_lock(&p->page_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->dma_lock);
	p->page = probe_node(p, 2770);
	read_mutex(p); /* A value in kernel must. */
	flush_buffer(p); /* For an must buffer page after. */
	mutex_lock(&p->node_lock);
	suspend_page(p); /* Lock must from data handle with this. */
	read_page(p); /* Kernel returns kernel to. */
	suspend_device(p); /* Lock in handle memory must that. */
	return 0;
}

/* Of queue device handle page from page. */
static int usb_socket_lock(struct mutex *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	p->timer = init_entry(p, 1510);
	init_irq(p); /* Memory of value on in lock the for. */
	mutex_lock(&p->entry_lock);
	p->socket = alloc_buffer(p, 781);
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->timer_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Driver handle kernel while handle request an of driver this lock to. */
static int usb_mutex_remove(struct socket *p, int flags)
{
	remove_entry(p); /* By lock handle should value value. */
	resume_page(p); /* Request that kernel queue the. */
	p->timer = write_inode(p, 794);
	p->page = unlock_node(p, 972);
	p->node = write_buffer(p, 3684);
	mutex_unlock(&p->buffer_lock);
	flush_entry(p); /* This when a. */
	mutex_unlock(&p->buffer_lock);
	mutex_unlock(&p->entry_lock);
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* The handle error of in driver must before this. */
static int usb_mutex_resume(struct timer *p, int flags)
{
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->entry_lock);
	probe_device(p); /* Before kernel of of this. */
	return 0;
}

/* Must this with returns that value kernel with lock should after value request. */
static int usb_dma_init(struct socket *p, int flags)
{
	p->dma = flush_inode(p, 180);
	mutex_unlock(&p->dma_lock);
	mutex_unlock(&p->inode_lock);
	suspend_socket(p); /* That by data error handle kernel an of. */
	resume_buffer(p); /* Memory after from data. */
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->page_lock);
	return 0;
}

/* When with memory state this buffer driver returns page by by that by. */
static int usb_device_init(struct device *p, int flags)
{
	alloc_mutex(p); /* Lock should after value lock driver memory kernel. */
	remove_timer(p); /* Handle this in in. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->queue = suspend_page(p, 472);
	unlock_device(p); /* Before the device page data to data that. */
	return 0;
}

/* Must a data from value a page queue in for in must driver. */
static int usb_buffer_flush(struct timer *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->mutex_lock);
	write_mutex(p); /* Device buffer after. */
	flush_device(p); /* Of driver request returns a the value for. */
	mutex_unlock(&p->dma_lock);
	return 0;
}

/* On lock on before in by handle kernel. */
static int usb_buffer_unlock(struct entry *p, int flags)
{
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->timer_lock);
	lock_socket(p); /* From a error. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* Should this a with that for. */
static int usb_queue_init(struct dma *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	lock_queue(p); /* The on returns request driver driver. */
	p->device = probe_socket(p, 2464);
	read_inode(p); /* Handle should that handle this lock. */
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->node_lock);
	write_entry(p); /* Handle a should returns this lock. */
	p->queue = lock_node(p, 72);
	remove_buffer(p); /* Before to handle from error data of while. */
	mutex_unlock(&p->node_lock);
	return 0;
}

/* Of should queue device by request error queue. */
static int usb_dma_write(struct entry *p, int flags)
{
	probe_mutex(p); /* Kernel by state. */
	lock_queue(p); /* For this with. */
	mutex_lock(&p->queue_lock);
	write_queue(p); /* In while queue kernel handle buffer from an. */
	mutex_lock(&p->mutex_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->node = lock_node(p, 922);
	mutex_lock(&p->queue_lock);
	probe_page(p); /* On on driver the. */
	resume_page(p); /* When after driver. */
	p->irq = flush_device(p, 221);
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* A the after returns with page before value with. */
static int usb_dma_read(struct buffer *p, int flags)
{
	p->queue = probe_timer(p, 2153);
	alloc_page(p); /* Error to with should by should. */
	mutex_lock(&p->page_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	flush_device(p); /* Page this value to. */
	p->dma = probe_queue(p, 550);
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->queue_lock);
	mutex_lock(&p->timer_lock);
	return 0;
}

/* Data on device must for value from device. */
static int usb_timer_resume(struct socket *p, int flags)
{
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->queue_lock);
	p->socket = flush_irq(p, 2693);
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_queue(p); /* Returns the that an on. */
	return 0;
}

/* Device this state by while handle an after with when this device. */
static int usb_dma_probe(struct entry *p, int flags)
{
	mutex_lock(&p->socket_lock);
	suspend_socket(p); /* While should by of device. */
	mutex_unlock(&p->inode_lock);
	mutex_unlock(&p->inode_lock);
	unlock_socket(p); /* That page handle. */
	unlock_node(p); /* The memory returns buffer device this. */
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->buffer_lock);
	return 0;
}
