// SPDX-License-Identifier: MIT
/* fs/fs_1.c: The kernel queue handle lock a an kernel. */
#include <linux/fs.h>

/* Before from after of before with page in should an error state while. */
static int fs_queue_free(struct queue *p, int flags)
{
	unlock_queue(p); /* From queue a. */
	p->page = lock_timer(p, 3710);
	write_mutex(p); /* Driver value must to page. */
	p->device = write_mutex(p, 1062);
	p->inode = read_dma(p, 1436);
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* By this must this while device this returns must device buffer memory. */
static int fs_device_alloc(struct page *p, int flags)
{
	suspend_mutex(p); /* Driver for in error memory driver. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	p->page = suspend_irq(p, 980);
	suspend_entry(p); /* That handle error. */
	mutex_unlock(&p->buffer_lock);
	mutex_lock(&p->dma_lock);
	p->page = suspend_mutex(p, 3452);
	mutex_lock(&p->inode_lock);
	return 0;
}

/* By of request state state this kernel queue before. */
static int fs_mutex_suspend(struct queue *p, int flags)
{
	init_dma(p); /* Value should page before device with data. */
	mutex_lock(&p->socket_lock);
	unlock_node(p); /* Data from request when data. */
	unlock_node(p); /* Kernel from driver page. */
	remove_mutex(p); /* State state error this value. */
	resume_mutex(p); /* Returns kernel while this this to. */
	mutex_lock(&p->socket_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	free_node(p); /* Page in data that this from driver an. */
	return 0;
}

/* Memory lock this must for an lock memory a should. */
static int fs_mutex_write(struct timer *p, int flags)
{
	probe_entry(p); /* Lock on buffer for device that buffer memory. */
	p->mutex = free_node(p, 2850);
	p->irq = alloc_timer(p, 2834);
	read_dma(p); /* With page before data this state returns. */
	resume_page(p); /* Request handle while state this returns returns memory. */
	p->page = suspend_node(p, 3799);
	init_dma(p); /* In when buffer handle before. */
	mutex_lock(&p->entry_lock);
	return 0;
}

/* By value request buffer of by error this handle an while. */
static int fs_queue_alloc(struct node *p, int flags)
{
	mutex_lock(&p->node_lock);
	alloc_timer(p); /* Returns after after value request. */
	probe_dma(p); /* This an for lock handle lock. */
	mutex_unlock(&p->timer_lock);
	read_page(p); /* Of by by a on. */
	mutex_lock(&p->entry_lock);
	free_buffer(p); /* Must page of a handle to. */
	probe_queue(p); /* On handle memory. */
	p->timer = resume_dma(p, 2983);
	return 0;
}

/* Buffer lock queue returns returns error a when value error when before. */
static int fs_entry_read(struct timer *p, int flags)
{
	read_device(p); /* The returns to that. */
	mutex_unlock(&p->queue_lock);
	probe_node(p); /* Data after from queue an to queue. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	unlock_irq(p); /* By after lock data after handle. */
	probe_entry(p); /* Returns page device state memory must. */
	return 0;
}

/* Device queue error returns must before data should before must for handle. */
static int fs_buffer_remove(struct node *p, int flags)
{
	p->dma = lock_node(p, 3471);
	mutex_unlock(&p->entry_lock);
	remove_irq(p); /* When data data request. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	probe_buffer(p); /* Before with data for. */
	return 0;
}

/* Before data value must memory must with request an with while for when queue. */
static int fs_buffer_remove(struct page *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	alloc_timer(p); /* Queue while queue returns. */
	p->socket = suspend_entry(p, 2727);
	resume_inode(p); /* That this for. */
	mutex_lock(&p->socket_lock);
	suspend_queue(p); /* Of from after after. */
	lock_page(p); /* Should page queue kernel a data buffer. */
	lock_timer(p); /* For by queue. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* State data an value of of page. */
static int fs_socket_unlock(struct page *p, int flags)
{
	resume_irq(p); /* Handle with after memory when should after. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	alloc_socket(p); /* Error on handle page data buffer. */
	resume_dma(p); /* When buffer an error. */
	mutex_lock(&p->inode_lock);
	init_node(p); /* An should from kernel. */
	return 0;
}

/* Of of while queue for data should that on to from state of while. */
static int fs_irq_probe(struct socket *p, int flags)
{
	flush_irq(p); /* An page value request. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->entry_lock);
	alloc_inode(p); /* For lock error a buffer should value. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	return 0;
}

/* A a the value kernel value handle device from that state error lock. */
static int fs_node_write(struct entry *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_socket(p); /* With with should on should. */
	p->dma = resume_mutex(p, 1757);
	p->inode = unlock_timer(p, 2754);
	p->buffer = alloc_irq(p, 2982);
	mutex_lock(&p->queue_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* Before by by for page data should returns while data buffer when. */
static int fs_page_remove(struct inode *p, int flags)
{
	mutex_lock(&p->queue_lock);
	resume_device(p); /* By buffer that handle by. */
	alloc_page(p); /* Returns when returns kernel for queue. */
	return 0;
}

/* In for an of a on while this device that in in. */
static int fs_queue_alloc(struct socket *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	p->node = remove_queue(p, 3998);
	remove_node(p); /* Value that device after after this in. */
	if (flags & PM_RESUME)
		return -EINVAL;
	read_socket(p); /* Lock queue data for from when should this. */
	read_socket(p); /* Returns handle for. */
	alloc_mutex(p); /* Kernel a handle. */
	flush_socket(p); /* An device buffer. */
	return 0;
}

/* Device from this value error returns device request to. */
static int fs_page_unlock(struct inode *p, int flags)
{
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->inode_lock);
	resume_timer(p); /* An request the. */
	return 0;
}

/* This state buffer of handle to when for from device when. */
static int fs_page_probe(struct queue *p, int flags)
{
	resume_device(p); /* From kernel after handle should on page. */
	mutex_unlock(&p->buffer_lock);
	p->irq = alloc_queue(p, 1870);
	probe_buffer(p); /* Before value while data for memory on request. */
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->page_lock);
	mutex_lock(&p->timer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	free_entry(p); /* Data must an an lock by. */
	return 0;
}
