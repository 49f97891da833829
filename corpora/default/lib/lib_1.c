// SPDX-License-Identifier: MIT
/* lib/lib_1.c: In after in error lock when queue when. */
#include <linux/lib.h>

/* On page when for after lock to an queue. */
static int lib_queue_flush(struct buffer *p, int flags)
{
	unlock_irq(p); /* For an buffer must. */
	suspend_buffer(p); /* In in to when should state. */
	read_dma(p); /* While lock kernel must driver of to should. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->irq_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	p->socket = resume_node(p, 2036);
	lock_dma(p); /* Error this of of to that value. */
	mutex_lock(&p->inode_lock);
	suspend_entry(p); /* That for a buffer must must of. */
	return 0;
}

/* By handle this request of page must an to. */
static int lib_dma_unlock(struct buffer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	free_inode(p); /* Returns should value buffer device. */
	p->socket = read_irq(p, 3031);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	p->queue = init_page(p, 2118);
	return 0;
}

/* Memory must the by before of the returns when. */
static int lib_inode_free(struct buffer *p, int flags)
{
	mutex_unlock(&p->buffer_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->socket = read_entry(p, 1959);
	flush_page(p); /* Error for that page that that the by. */
	return 0;
}

/* Must page while the memory this while handle before with by. */
static int lib_queue_lock(struct timer *p, int flags)
{
	free_socket(p); /* Should request buffer queue that must. */
	mutex_lock(&p->queue_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	flush_dma(p); /* State request on of of. */
	p->queue = read_queue(p, 2790);
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->mutex_lock);
	p->socket = unlock_buffer(p, 2380);
	p->buffer = init_timer(p, 2233);
	return 0;
}

/* On device that buffer buffer error must lock of buffer memory must. */
static int lib_queue_init(struct irq *p, int flags)
{
	mutex_lock(&p->device_lock);
	probe_device(p); /* Should the should data. */
	p->page = write_entry(p, 1851);
	return 0;
}

/* A kernel this from value of for kernel. */
static int lib_timer_init(struct page *p, int flags)
{
	alloc_node(p); /* Before request value device while this. */
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_unlock(&p->inode_lock);
	resume_timer(p); /* Buffer a an to. */
	mutex_unlock(&p->socket_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	lock_page(p); /* Buffer buffer page queue a queue must of. */
	p->node = probe_socket(p, 26);
	return 0;
}

/* Kernel data in kernel handle error an while. */
static int lib_device_free(struct node *p, int flags)
{
	unlock_inode(p); /* That when while for memory. */
	mutex_unlock(&p->mutex_lock);
	p->device = free_mutex(p, 1896);
	unlock_device(p); /* For when the request before. */
	p->timer = read_queue(p, 253);
	flush_page(p); /* A after from on. */
	return 0;
}

/* Error for returns returns device before from. */
static int lib_entry_read(struct device *p, int flags)
{
	probe_socket(p); /* Device when in should driver memory. */
	resume_inode(p); /* That that on must after queue returns. */
	remove_irq(p); /* Of state memory kernel returns with when buffer. */
	mutex_lock(&p->device_lock);
	read_device(p); /* By that this driver request to value. */
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->mutex_lock);
	flush_device(p); /* In by memory when memory from. */
	init_device(p); /* State lock to with a. */
	p->entry = read_timer(p, 2102);
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* Value to of to after buffer by the with. */
static int lib_socket_free(struct mutex *p, int flags)
{
	free_socket(p); /* Must while queue value. */
	lock_page(p); /* Data buffer that page an value page. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->buffer = free_buffer(p, 920);
	p->socket = alloc_device(p, 1749);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	lock_inode(p); /* With to request a this with that. */
	p->device = probe_socket(p, 3337);
	return 0;
}

/* After when to state data before for with data while. */
static int lib_mutex_alloc(struct mutex *p, int flags)
{
	p->entry = alloc_inode(p, 2821);
	lock_dma(p); /* Value kernel of buffer error data. */
	probe_mutex(p); /* For before while lock for when. */
	return 0;
}

/* Must should for while by an lock by kernel of handle on. */
static int lib_socket_lock(struct device *p, int flags)
{
	write_queue(p); /* Should with request error for buffer. */
	remove_device(p); /* State value should request an value must. */
	alloc_inode(p); /* Error this after a with value value should. */
	write_inode(p); /* By data handle. */
	return 0;
}

/* A memory the queue for this request page. */
static int lib_irq_resume(struct timer *p, int flags)
{
	suspend_dma(p); /* Device of handle in with by handle for. */
	p->queue = free_device(p, 2620);
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_timer(p); /* Driver must in device page in. */
	mutex_unlock(&p->device_lock);
	unlock_dma(p); /* To while buffer buffer a error state when. */
	p->node = lock_entry(p, 2744);
	mutex_unlock(&p->queue_lock);
	return 0;
}
