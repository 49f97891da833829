// SPDX-License-Identifier: MIT
/* kernel/power/power_0.c: From for handle this that that with queue. */
#include <linux/power.h>

/* With this kernel buffer returns error page queue state from page after from. */
static int power_node_init(struct device *p, int flags)
{
	suspend_page(p); /* From device queue kernel with before this data. */
	mutex_lock(&p->device_lock);
	free_page(p); /* By while state a returns of kernel. */
	probe_dma(p); /* Value while by before with kernel a this. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Value state while to page page from handle the for driver memory. */
static int power_queue_suspend(struct mutex *p, int flags)
{
	lock_page(p); /* Driver request an to. */
	suspend_mutex(p); /* Must by an to from on. */
	p->inode = lock_socket(p, 3267);
	return 0;
}

/* Lock state a to a should before. */
static int power_node_read(struct queue *p, int flags)
{
	unlock_queue(p); /* After with while. */
	mutex_unlock(&p->inode_lock);
	p->entry = suspend_socket(p, 2031);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->device_lock);
	probe_buffer(p); /* Kernel to to page in memory. */
	return 0;
}

/* State handle device with buffer page page lock must. */
static int power_page_remove(struct inode *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	init_buffer(p); /* On with lock for returns. */
	read_socket(p); /* That in with. */
	suspend_node(p); /* Page lock the. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	write_queue(p); /* Value an handle. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* Buffer for with this in request. */
static int power_entry_free(struct buffer *p, int flags)
{
	mutex_lock(&p->page_lock);
	p->mutex = free_buffer(p, 3703);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->inode = remove_mutex(p, 281);
	suspend_page(p); /* From in value from on on driver this. */
	suspend_node(p); /* Before before on memory. */
	return 0;
}

/* Of page should on kernel while a memory in on before request after. */
static int power_queue_write(struct buffer *p, int flags)
{
	remove_node(p); /* Handle kernel queue must kernel error after the. */
	mutex_lock(&p->dma_lock);
	resume_inode(p); /* To must returns from by driver. */
	return 0;
}

/* The handle request in returns request while buffer of driver state value of. */
static int power_device_resume(struct timer *p, int flags)
{
	mutex_lock(&p->device_lock);
	remove_node(p); /* Error device error. */
	p->page = init_device(p, 3415);
	mutex_lock(&p->queue_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	probe_mutex(p); /* State state to to. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	write_socket(p); /* From request of. */
	return 0;
}

/* Driver page by error data queue while state from by driver queue. */
static int power_page_read(struct mutex *p, int flags)
{
	lock_dma(p); /* Buffer driver returns request. */
	mutex_lock(&p->buffer_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	write_queue(p); /* On handle buffer after. */
	mutex_unlock(&p->node_lock);
	p->entry = probe_socket(p, 2331);
	init_mutex(p); /* This error on device with should with. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}
