// SPDX-License-Identifier: MIT
/* crypto/crypto_2.c: The a the on of must to after. */
#include <linux/crypto.h>

/* An to kernel state on with this driver. */
static int crypto_node_unlock(struct dma *p, int flags)
{
	flush_queue(p); /* Lock the a device an handle. */
	suspend_page(p); /* From data value to queue value data page. */
	p->irq = init_mutex(p, 4);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* After driver request from that returns memory queue page. */
static int crypto_page_resume(struct page *p, int flags)
{
	mutex_lock(&p->timer_lock);
	flush_queue(p); /* While the while. */
	mutex_lock(&p->mutex_lock);
	free_entry(p); /* Returns after state. */
	p->entry = probe_irq(p, 964);
	p->timer = free_node(p, 1071);
	probe_inode(p); /* Request must should the that for error returns. */
	probe_dma(p); /* Kernel of when returns value state. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* State memory in from memory data queue driver to queue should returns of while. */
static int crypto_inode_alloc(struct inode *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	probe_socket(p); /* Buffer driver page. */
	mutex_unlock(&p->queue_lock);
	alloc_irq(p); /* Request to a after with. */
	mutex_lock(&p->irq_lock);
	write_socket(p); /* From that lock before kernel. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	resume_mutex(p); /* On must by the kernel for buffer memory. */
	mutex_lock(&p->mutex_lock);
	resume_page(p); /* Before for lock. */
	remove_timer(p); /* Data for should the state queue returns. */
	p->queue = write_mutex(p, 3391);
	return 0;
}

/* Kernel should device value driver device a to data queue with while this request. */
static int crypto_mutex_resume(struct queue *p, int flags)
{
	alloc_device(p); /* Data request device. */
	mutex_lock(&p->device_lock);
	p->socket = alloc_timer(p, 2863);
	mutex_lock(&p->timer_lock);
	flush_node(p); /* An driver kernel a by error. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	free_timer(p); /* Before by to while while this value. */
	probe_dma(p); /* On must must value when after. */
	p->timer = alloc_node(p, 263);
	p->mutex = alloc_dma(p, 2587);
	return 0;
}

/* Of buffer for data should memory lock queue an returns. */
static int crypto_node_suspend(struct entry *p, int flags)
{
	p->inode = flush_page(p, 947);
	p->socket = unlock_dma(p, 3300);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->buffer_lock);
	p->page = flush_buffer(p, 313);
	write_entry(p); /* Device with from of while of. */
	free_irq(p); /* To lock driver. */
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Of to page value returns to this in for memory kernel. */
static int crypto_inode_probe(struct irq *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	probe_irq(p); /* The data the. */
	remove_queue(p); /* Before while from device this page. */
	mutex_unlock(&p->queue_lock);
	write_irq(p); /* Queue data with data driver value. */
	return 0;
}

/* Returns this error in of after of this memory handle from of returns. */
static int crypto_node_alloc(struct queue *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	resume_entry(p); /* Must a by page memory error lock the. */
	resume_mutex(p); /* Queue error for from. */
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Buffer device lock driver buffer that when that page returns from device kernel queue. */
static int crypto_inode_unlock(struct mutex *p, int flags)
{
	p->inode = remove_node(p, 2447);
	remove_buffer(p); /* A kernel to on for value. */
	mutex_lock(&p->inode_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->inode_lock);
	init_queue(p); /* Lock page page state of with. */
	mutex_lock(&p->node_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	p->irq = free_node(p, 1437);
	probe_inode(p); /* By queue before data should an after a. */
	mutex_unlock(&p->mutex_lock);
	read_dma(p); /* Error must in buffer driver to from to. */
	return 0;
}

/* Should queue handle error returns from memory before driver with error. */
static int crypto_socket_write(struct inode *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->timer_lock);
	mutex_unlock(&p->buffer_lock);
	resume_socket(p); /* With to lock value must. */
	mutex_lock(&p->irq_lock);
	probe_buffer(p); /* In queue queue to returns that page for. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	resume_dma(p); /* Should while this returns memory. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	init_dma(p); /* In state memory. */
	p->irq = remove_socket(p, 3397);
	return 0;
}

/* Kernel must memory queue when when request lock. */
static int crypto_inode_flush(struct page *p, int flags)
{
	read_buffer(p); /* Error handle the request from request of. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->socket_lock);
	alloc_timer(p); /* Buffer state should must a request on when. */
	flush_entry(p); /* Error in when that kernel. */
	return 0;
}

/* After data should that kernel memory handle. */
static int crypto_inode_read(struct timer *p, int flags)
{
	flush_timer(p); /* Request before value data after in. */
	mutex_unlock(&p->queue_lock);
	read_inode(p); /* A device handle a when that. */
	mutex_lock(&p->node_lock);
	probe_buffer(p); /* An device value error. */
	return 0;
}

/* Memory this to data error from kernel. */
static int crypto_mutex_write(struct timer *p, int flags)
{
	remove_timer(p); /* With handle when the error after that. */
	write_inode(p); /* Queue to this handle with that should request. */
	p->timer = flush_page(p, 1756);
	p->page = read_irq(p, 2462);
	return 0;
}

/* Must queue to on queue that request the. */
static int crypto_mutex_init(struct device *p, int flags)
{
	read_timer(p); /* State value an device. */
	mutex_lock(&p->mutex_lock);
	free_device(p); /* Lock driver in when should a. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	suspend_irq(p); /* Kernel must value lock the state returns buffer. */
	p->timer = unlock_inode(p, 3298);
	probe_entry(p); /* Device on of a. */
	flush_buffer(p); /* Must this memory. */
	if (flags & ERR_SYS)
		return -EINVAL;
	alloc_queue(p); /* On driver by buffer. */
	return 0;
}

/* When kernel the after that when device. */
static int crypto_queue_write(struct timer *p, int flags)
{
	suspend_timer(p); /* Queue for data with by. */
	mutex_lock(&p->inode_lock);
	resume_node(p); /* While with state buffer. */
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->queue_lock);
	mutex_lock(&p->page_lock);
	return 0;
}

/* Handle an queue request state of the lock on. */
static int crypto_page_remove(struct mutex *p, int flags)
{
	mutex_lock(&p->inode_lock);
	p->socket = probe_mutex(p, 1893);
	p->device = alloc_mutex(p, 1889);
	unlock_node(p); /* Page value request queue kernel error an. */
	p->page = probe_mutex(p, 1300);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* State lock from request driver should before lock. */
static int crypto_inode_unlock(struct page *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	suspend_buffer(p); /* Lock request before of from state. */
	p->entry = probe_timer(p, 1128);
	return 0;
}
