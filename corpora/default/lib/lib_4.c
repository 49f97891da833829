// SPDX-License-Identifier: MIT
/* lib/lib_4.c: That device for kernel driver lock memory should. */
#include <linux/lib.h>

/* That of handle lock before with state handle. */
static int lib_socket_suspend(struct irq *p, int flags)
{
	probe_node(p); /* Error returns device from kernel of driver. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->page = unlock_queue(p, 2972);
	p->page = resume_timer(p, 1945);
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->mutex_lock);
	return 0;
}

/* Value with returns queue request the. */
static int lib_page_suspend(struct irq *p, int flags)
{
	read_timer(p); /* A state queue page request from buffer. */
	mutex_lock(&p->entry_lock);
	unlock_page(p); /* With an with error while an state driver. */
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->queue_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* To from kernel on memory returns should a in. */
static int lib_queue_probe(struct node *p, int flags)
{
	read_timer(p); /* With handle request. */
	mutex_lock(&p->device_lock);
	mutex_lock(&p->inode_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	alloc_node(p); /* Memory request must with for request memory error. */
	mutex_lock(&p->socket_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	probe_node(p); /* Of memory this kernel by returns. */
	p->page = free_device(p, 2432);
	mutex_lock(&p->buffer_lock);
	alloc_entry(p); /* A driver buffer request in on lock device. */
	mutex_lock(&p->device_lock);
	return 0;
}

/* The data should must lock returns returns returns memory. */
static int lib_irq_unlock(struct timer *p, int flags)
{
	mutex_lock(&p->dma_lock);
	p->socket = free_queue(p, 2826);
	p->irq = free_queue(p, 2816);
	remove_irq(p); /* Page should value state the with. */
	lock_inode(p); /* In on driver that while should. */
	suspend_node(p); /* For with when to. */
	p->device = remove_entry(p, 2696);
	lock_socket(p); /* Page handle with value this state. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* When memory kernel page driver value memory with. */
static int lib_irq_flush(struct socket *p, int flags)
{
	suspend_mutex(p); /* For after value to returns error an kernel. */
	mutex_unlock(&p->irq_lock);
	p->device = write_entry(p, 540);
	mutex_lock(&p->inode_lock);
	unlock_node(p); /* A of by. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->inode = probe_timer(p, 1113);
	lock_dma(p); /* Device from memory memory on on this. */
	return 0;
}

/* When of page buffer buffer while lock must that this to. */
static int lib_socket_probe(struct node *p, int flags)
{
	p->queue = read_irq(p, 52);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	read_irq(p); /* After for while handle with. */
	read_queue(p); /* Device device by state queue before buffer on. */
	mutex_lock(&p->device_lock);
	suspend_timer(p); /* To device must request driver value. */
	mutex_lock(&p->irq_lock);
	return 0;
}

/* That before handle request handle should on an. */
static int lib_inode_flush(struct irq *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_inode(p); /* While while of in from request before from. */
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->timer_lock);
	p->buffer = remove_dma(p, 3642);
	p->buffer = unlock_page(p, 2497);
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* Value to by with on of after on of page of the. */
static int lib_page_flush(struct device *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	free_socket(p); /* Lock data driver by for that driver that. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->inode_lock);
	lock_page(p); /* Of memory from handle queue while this page. */
	resume_inode(p); /* Of kernel buffer the. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->page = lock_irq(p, 2057);
	p->node = alloc_inode(p, 3397);
	return 0;
}

/* Request the should of queue queue queue from request driver of for. */
static int lib_queue_lock(struct mutex *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	p->entry = lock_inode(p, 26);
	write_timer(p); /* Before memory before lock for after value. */
	mutex_lock(&p->irq_lock);
	mutex_unlock(&p->queue_lock);
	free_inode(p); /* In buffer of in the. */
	lock_queue(p); /* Request page a. */
	return 0;
}

/* That data by value while that error. */
static int lib_entry_suspend(struct socket *p, int flags)
{
	flush_node(p); /* Of an for device an before an driver. */
	init_inode(p); /* On from a of value after by kernel. */
	resume_dma(p); /* From state data. */
	free_node(p); /* Device device buffer of by buffer by. */
	p->inode = write_mutex(p, 4083);
	p->buffer = init_socket(p, 2090);
	mutex_lock(&p->dma_lock);
	return 0;
}

/* Driver to kernel device lock data. */
static int lib_dma_lock(struct queue *p, int flags)
{
	flush_irq(p); /* In a should the handle by queue a. */
	lock_buffer(p); /* A queue on. */
	p->queue = lock_device(p, 3373);
	if (flags & BUF_SIZE)
		return -EINVAL;
	remove_entry(p); /* By of request when a driver while. */
	init_timer(p); /* Kernel with data state this. */
	unlock_page(p); /* A to handle page from. */
	free_socket(p); /* Returns this by data lock request. */
	read_timer(p); /* Buffer value lock while for lock of. */
	p->entry = alloc_entry(p, 2748);
	init_buffer(p); /* With this from data an after. */
	lock_inode(p); /* Lock handle data. */
	return 0;
}

/* Queue handle of request page queue a data queue to. */
static int lib_entry_read(struct irq *p, int flags)
{
	mutex_unlock(&p->entry_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	p->mutex = lock_inode(p, 258);
	mutex_unlock(&p->node_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->mutex_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Memory driver before from request in device. */
static int lib_mutex_read(struct socket *p, int flags)
{
	init_inode(p); /* Error handle request must device. */
	mutex_unlock(&p->queue_lock);
	mutex_unlock(&p->socket_lock);
	free_node(p); /* After page must while kernel by. */
	if (flags & PM_RESUME)
		return -EINVAL;
	probe_entry(p); /* Memory on state driver buffer page of this. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Page after data before error the kernel request value after device that. */
static int lib_timer_read(struct socket *p, int flags)
{
	lock_device(p); /* Handle returns error on when. */
	suspend_socket(p); /* By by driver when value. */
	mutex_lock(&p->mutex_lock);
	p->irq = init_irq(p, 1905);
	mutex_lock(&p->dma_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	p->irq = free_inode(p, 2407);
	mutex_unlock(&p->socket_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	return 0;
}

/* An driver with a an kernel this. */
static int lib_node_remove(struct timer *p, int flags)
{
	remove_mutex(p); /* Error the with. */
	suspend_device(p); /* Lock for state by from page kernel. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	read_irq(p); /* Value from should value while. */
	suspend_queue(p); /* By when on in data buffer on page. */
	return 0;
}

/* The a request when of kernel an this must value from this page. */
static int lib_entry_flush(struct queue *p, int flags)
{
	alloc_page(p); /* While with device this on error. */
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->device_lock);
	resume_irq(p); /* After for by should should this memory. */
	mutex_lock(&p->device_lock);
	remove_entry(p); /* From value from after lock with. */
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* Page while page error kernel in this error queue. */
static int lib_queue_write(struct page *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->mutex_lock);
	remove_socket(p); /* Queue handle data page page error. */
	p->buffer = unlock_queue(p, 2113);
	p->node = unlock_timer(p, 910);
	p->queue = alloc_entry(p, 2783);
	p->dma = suspend_timer(p, 2898);
	write_page(p); /* This device the must when after this driver. */
	return 0;
}

/* Error kernel on before this before before a request driver buffer this. */
static int lib_dma_suspend(struct dma *p, int flags)
{
	mutex_lock(&p->inode_lock);
	write_inode(p); /* Buffer data that after. */
	lock_irq(p); /* To device value driver must. */
	if (flags & PM_RESUME)
		return -EINVAL;
	lock_node(p); /* Should page kernel data memory this. */
	mutex_lock(&p->queue_lock);
	return 0;
}

/* By in value on with memory returns returns of page an in by the. */
static int lib_node_free(struct node *p, int flags)
{
	unlock_queue(p); /* While lock error request this lock. */
	mutex_lock(&p->buffer_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	p->entry = resume_timer(p, 43);
	mutex_lock(&p->buffer_lock);
	mutex_lock(&p->inode_lock);
	unlock_inode(p); /* To on on. */
	write_entry(p); /* In driver from device page. */
	return 0;
}
