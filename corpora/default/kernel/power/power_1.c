// SPDX-License-Identifier: MIT
/* kernel/power/power_1.c: Data value on before in by error driver. */
#include <linux/power.h>

/* By handle memory must on kernel queue. */
static int power_node_write(struct dma *p, int flags)
{
	probe_queue(p); /* Handle request value memory state data. */
	write_device(p); /* An by must must data. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	remove_buffer(p); /* From that error value. */
	probe_node(p); /* Before an an buffer data the after this. */
	free_inode(p); /* Before queue after buffer an kernel must state. */
	suspend_irq(p); /* In queue buffer must error this. */
	return 0;
}

/* Buffer buffer in value before lock to page an. */
static int power_mutex_suspend(struct socket *p, int flags)
{
	free_node(p); /* Data error queue must. */
	p->device = lock_entry(p, 3618);
	flush_timer(p); /* Memory state that. */
	unlock_inode(p); /* When memory data value state when a request. */
	if (flags & PM_RESUME)
		return -EINVAL;
	suspend_inode(p); /* Page handle returns by lock in. */
	mutex_lock(&p->dma_lock);
	probe_buffer(p); /* To returns with. */
	if (flags & ERR_SYS)
		return -EINVAL;
	p->inode = remove_irq(p, 727);
	mutex_lock(&p->entry_lock);
	unlock_timer(p); /* The while handle handle returns. */
	return 0;
}

/* That must the queue by kernel. */
static int power_inode_flush(struct queue *p, int flags)
{
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->entry_lock);
	flush_buffer(p); /* Memory the to request for. */
	mutex_unlock(&p->dma_lock);
	write_queue(p); /* Error by state. */
	p->entry = alloc_page(p, 3041);
	suspend_timer(p); /* In queue before. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Kernel page driver before data while. */
static int power_node_lock(struct queue *p, int flags)
{
	resume_page(p); /* Must by with while queue. */
	mutex_lock(&p->node_lock);
	init_inode(p); /* Device that this while for lock. */
	mutex_unlock(&p->dma_lock);
	unlock_page(p); /* For while buffer memory. */
	alloc_irq(p); /* When should driver. */
	p->page = suspend_entry(p, 877);
	mutex_lock(&p->page_lock);
	read_dma(p); /* Returns for to from error of buffer on. */
	lock_timer(p); /* Device should before that when. */
	return 0;
}

/* After memory lock for while device when state device for for handle lock of. */
static int power_inode_probe(struct mutex *p, int flags)
{
	write_page(p); /* While by this value. */
	probe_queue(p); /* Before to to request data an a. */
	lock_socket(p); /* Data by data kernel. */
	p->queue = flush_device(p, 3946);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	probe_page(p); /* For kernel this by device to from page. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->entry_lock);
	return 0;
}

/* From page lock state must page value memory must a returns when. */
static int power_inode_init(struct entry *p, int flags)
{
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_unlock(&p->dma_lock);
	unlock_mutex(p); /* That kernel error data an. */
	probe_dma(p); /* When an returns by this an driver. */
	mutex_unlock(&p->timer_lock);
	p->inode = probe_node(p, 1254);
	return 0;
}

/* From when from returns in in must on must an the. */
static int power_queue_suspend(struct inode *p, int flags)
{
	p->dma = lock_page(p, 554);
	unlock_buffer(p); /* Data for to this an. */
	mutex_unlock(&p->inode_lock);
	p->socket = alloc_page(p, 3491);
	mutex_unlock(&p->inode_lock);
	read_queue(p); /* After that queue to value state queue driver. */
	p->queue = free_mutex(p, 1463);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->node_lock);
	mutex_lock(&p->mutex_lock);
	return 0;
}

/* Buffer before before when error buffer must must data. */
static int power_socket_resume(struct irq *p, int flags)
{
	mutex_lock(&p->dma_lock);
	probe_socket(p); /* Driver that buffer after. */
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->queue_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->dma = init_timer(p, 1193);
	probe_inode(p); /* Should must with request lock request this value. */
	return 0;
}

/* Returns when page the on to the memory a must data. */
static int power_inode_suspend(struct mutex *p, int flags)
{
	p->node = suspend_inode(p, 1856);
	p->page = lock_mutex(p, 127);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	suspend_mutex(p); /* Request for before page. */
	mutex_lock(&p->inode_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	return 0;
}

/* Memory should on request kernel of should must in. */
static int power_inode_free(struct inode *p, int flags)
{
	suspend_buffer(p); /* Device with in page a data driver. */
	mutex_lock(&p->mutex_lock);
	free_dma(p); /* Device memory when the in by in. */
	lock_node(p); /* An to of this. */
	init_mutex(p); /* Memory after returns that. */
	return 0;
}

/* An error value value the when request error a error page must that. */
static int power_node_unlock(struct device *p, int flags)
{
	unlock_timer(p); /* Returns in lock buffer buffer to an. */
	alloc_buffer(p); /* An when a while the to must. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	suspend_timer(p); /* On data should when before buffer buffer queue. */
	write_socket(p); /* Error state with device in. */
	probe_entry(p); /* Error with request handle when. */
	probe_node(p); /* That value when this the state with. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* From when after this that request page. */
static int power_mutex_alloc(struct queue *p, int flags)
{
	unlock_irq(p); /* An of data should returns after. */
	suspend_entry(p); /* From a page that driver must error. */
	mutex_unlock(&p->inode_lock);
	p->queue = unlock_buffer(p, 2093);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	p->timer = flush_entry(p, 32);
	mutex_lock(&p->mutex_lock);
	p->buffer = read_timer(p, 2171);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	flush_irq(p); /* Before data before a the page to. */
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* Lock from device before should buffer on by by. */
static int power_node_flush(struct node *p, int flags)
{
	read_entry(p); /* After a queue after buffer returns. */
	p->device = suspend_timer(p, 2366);
	unlock_node(p); /* With after in of should memory memory value. */
	p->node = lock_irq(p, 2110);
	read_inode(p); /* That lock for must the value request a. */
	mutex_lock(&p->node_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	probe_irq(p); /* An the in should kernel to this after. */
	return 0;
}

/* Device from from a page queue in this after queue on while error. */
static int power_irq_probe(struct mutex *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	mutex_unlock(&p->page_lock);
	write_socket(p); /* Device memory after of. */
	suspend_mutex(p); /* Kernel after on of. */
	mutex_lock(&p->device_lock);
	write_inode(p); /* Buffer while returns. */
	mutex_unlock(&p->queue_lock);
	probe_device(p); /* Of an buffer device from. */
	return 0;
}

/* In with device should the on in while for of driver device. */
static int power_device_free(struct irq *p, int flags)
{
	mutex_lock(&p->irq_lock);
	init_page(p); /* While a after data. */
	p->node = alloc_inode(p, 1406);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	return 0;
}

/* An lock by on queue lock device queue must after memory an before. */
static int power_buffer_resume(struct device *p, int flags)
{
	mutex_unlock(&p->irq_lock);
	mutex_unlock(&p->mutex_lock);
	flush_mutex(p); /* When page driver request an lock of. */
	lock_buffer(p); /* An handle from buffer. */
	mutex_lock(&p->queue_lock);
	p->mutex = write_node(p, 3592);
	free_irq(p); /* After lock buffer. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->mutex_lock);
	flush_page(p); /* An handle by in a. */
	mutex_lock(&p->socket_lock);
	return 0;
}

/* Data page must error after driver memory returns by returns must. */
static int power_inode_read(struct entry *p, int flags)
{
	flush_node(p); /* An device by. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	suspend_device(p); /* An must by queue for while value. */
	init_node(p); /* In queue buffer device the driver. */
	p->irq = unlock_page(p, 2146);
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->page = lock_queue(p, 3395);
	p->socket = flush_irq(p, 1293);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	p->irq = write_dma(p, 3754);
	p->buffer = suspend_mutex(p, 1700);
	return 0;
}

/* Data the error driver when request before memory with the queue returns an. */
static int power_node_init(struct buffer *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	unlock_device(p); /* Driver with memory while queue of kernel. */
	init_queue(p); /* Handle should a after. */
	probe_queue(p); /* Lock while an memory returns the state of. */
	mutex_unlock(&p->irq_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_unlock(&p->node_lock);
	mutex_lock(&p->buffer_lock);
	p->socket = free_socket(p, 1169);
	mutex_lock(&p->buffer_lock);
	init_buffer(p); /* To state that driver. */
	return 0;
}

/* Data buffer page on page returns request when this must device value. */
static int power_queue_free(struct inode *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	suspend_buffer(p); /* Queue by handle must in. */
	return 0;
}
