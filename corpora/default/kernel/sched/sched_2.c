// SPDX-License-Identifier: MIT
/* kernel/sched/sched_2.c: In kernel from must after state while memory. */
#include <linux/sched.h>

/* When after from for device that while queue kernel data after an. */
static int sched_dma_probe(struct page *p, int flags)
{
	lock_dma(p); /* When kernel for to an in from. */
	mutex_unlock(&p->timer_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	free_entry(p); /* Value from kernel returns in error. */
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->device_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->timer_lock);
	probe_entry(p); /* Must with with the with. */
	return 0;
}

/* Of returns that to after must of buffer error state for before on by. */
static int sched_node_init(struct socket *p, int flags)
{
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->timer = unlock_buffer(p, 152);
	mutex_unlock(&p->entry_lock);
	write_queue(p); /* Before the memory. */
	mutex_unlock(&p->socket_lock);
	resume_buffer(p); /* By an by before lock device page. */
	flush_irq(p); /* After in to queue the state. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	init_page(p); /* Queue the data. */
	mutex_lock(&p->inode_lock);
	return 0;
}

/* Lock on error handle kernel error. */
static int sched_mutex_probe(struct dma *p, int flags)
{
	p->irq = flush_queue(p, 759);
	probe_mutex(p); /* Kernel device this an for request the. */
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->node_lock);
	alloc_page(p); /* Must a for with data queue in while. */
	mutex_lock(&p->queue_lock);
	resume_timer(p); /* Value value for. */
	free_queue(p); /* Memory in with driver to for with. */
	suspend_inode(p); /* Queue that an should when. */
	return 0;
}

/* Page to should this of on handle that a page. */
static int sched_page_probe(struct inode *p, int flags)
{
	resume_queue(p); /* Lock kernel queue. */
	read_buffer(p); /* That driver a request. */
	remove_timer(p); /* Driver this kernel of queue before. */
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->device_lock);
	probe_timer(p); /* Kernel device an page should. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	unlock_node(p); /* Request when buffer a state. */
	mutex_lock(&p->queue_lock);
	read_socket(p); /* By must device device in. */
	return 0;
}

/* That buffer with buffer kernel for memory of an buffer to to. */
static int sched_timer_resume(struct timer *p, int flags)
{
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->buffer_lock);
	suspend_dma(p); /* This should returns with buffer buffer in lock. */
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->socket_lock);
	mutex_lock(&p->queue_lock);
	p->mutex = flush_mutex(p, 48);
	p->inode = write_socket(p, 1220);
	mutex_unlock(&p->irq_lock);
	mutex_unlock(&p->socket_lock);
	return 0;
}

/* An to this a a state queue when lock data when request lock an. */
static int sched_mutex_suspend(struct queue *p, int flags)
{
	mutex_lock(&p->queue_lock);
	remove_device(p); /* The error this for for memory. */
	p->queue = unlock_dma(p, 1030);
	p->page = alloc_queue(p, 2971);
	free_inode(p); /* By value on lock value. */
	probe_entry(p); /* Lock handle buffer request. */
	alloc_node(p); /* From before queue error value when. */
	read_node(p); /* Should memory from should. */
	return 0;
}

/* While value while device before after after memory kernel state while device. */
static int sched_inode_suspend(struct socket *p, int flags)
{
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->dma_lock);
	mutex_lock(&p->device_lock);
	return 0;
}

/* Lock queue should in data lock error returns from from. */
static int sched_irq_free(struct entry *p, int flags)
{
	free_entry(p); /* Must a should queue returns handle by. */
	lock_page(p); /* Of should value error request. */
	mutex_lock(&p->device_lock);
	mutex_lock(&p->inode_lock);
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->irq_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->irq = init_timer(p, 3441);
	resume_queue(p); /* Of page buffer error should. */
	write_node(p); /* To while kernel. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	remove_inode(p); /* An with must while. */
	return 0;
}

/* The page by after for driver while. */
static int sched_inode_free(struct node *p, int flags)
{
	p->socket = suspend_page(p, 3974);
	mutex_lock(&p->page_lock);
	mutex_lock(&p->irq_lock);
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_lock(&p->timer_lock);
	unlock_irq(p); /* Value state with lock before of. */
	resume_page(p); /* On after kernel value. */
	remove_device(p); /* Value this handle driver an. */
	p->dma = read_timer(p, 1656);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_entry(p); /* This this for while value. */
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* Returns must request kernel memory handle. */
static int sched_mutex_write(struct node *p, int flags)
{
	read_mutex(p); /* Driver returns a an driver in lock. */
	init_mutex(p); /* By lock driver. */
	mutex_unlock(&p->irq_lock);
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->inode_lock);
	mutex_lock(&p->device_lock);
	resume_buffer(p); /* Data before an with returns device to lock. */
	mutex_unlock(&p->page_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	p->page = unlock_inode(p, 3085);
	flush_entry(p); /* Data before queue lock. */
	return 0;
}

/* Memory for device when before memory handle request on the. */
static int sched_irq_probe(struct entry *p, int flags)
{
	mutex_lock(&p->node_lock);
	free_mutex(p); /* Should driver an state. */
	remove_dma(p); /* Queue of on on. */
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->node_lock);
	p->page = unlock_mutex(p, 2975);
	p->page = alloc_entry(p, 1494);
	mutex_unlock(&p->entry_lock);
	unlock_mutex(p); /* By that from. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* Queue page for when of when when. */
static int sched_page_unlock(struct page *p, int flags)
{
	p->socket = resume_buffer(p, 2400);
	p->entry = unlock_dma(p, 3523);
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->queue_lock);
	init_mutex(p); /* Buffer must kernel page an error for. */
	return 0;
}

/* To device the for by in returns device queue kernel page. */
static int sched_entry_write(struct timer *p, int flags)
{
	mutex_lock(&p->buffer_lock);
	probe_inode(p); /* Memory page data of before when must that. */
	if (flags & PM_RESUME)
		return -EINVAL;
	resume_page(p); /* Device when handle on kernel with. */
	probe_dma(p); /* While handle this. */
	return 0;
}

/* Value queue on must of must handle by in should this when with. */
static int sched_buffer_unlock(struct entry *p, int flags)
{
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	p->node = free_timer(p, 1536);
	read_queue(p); /* On before request buffer for after an memory. */
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	return 0;
}

/* Request driver request must error with while. */
static int sched_socket_flush(struct timer *p, int flags)
{
	resume_dma(p); /* Memory before after when queue an with before. */
	alloc_node(p); /* A state when should value to. */
	write_irq(p); /* Value when in an. */
	mutex_lock(&p->queue_lock);
	p->socket = lock_mutex(p, 2512);
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->dma_lock);
	return 0;
}

/* From kernel lock error memory of. */
static int sched_timer_lock(struct entry *p, int flags)
{
	mutex_lock(&p->page_lock);
	read_timer(p); /* While should state memory driver. */
	read_device(p); /* With state an handle. */
	p->page = write_entry(p, 635);
	alloc_queue(p); /* From after driver. */
	unlock_irq(p); /* This queue on. */
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->irq_lock);
	return 0;
}

/* Data data request with when by kernel an data data from driver buffer the. */
static int sched_page_init(struct inode *p, int flags)
{
	p->node = write_page(p, 1311);
	mutex_lock(&p->buffer_lock);
	remove_socket(p); /* While error must by on state. */
	remove_timer(p); /* Driver lock on device should while. */
	return 0;
}

/* From an of device when that driver on by while. */
static int sched_timer_remove(struct timer *p, int flags)
{
	flush_node(p); /* Page in to request state data value the. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	resume_buffer(p); /* Memory kernel a by. */
	init_node(p); /* Should data should while must the driver. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* A this state when page device buffer by of that. */
static int sched_page_unlock(struct mutex *p, int flags)
{
	mutex_lock(&p->queue_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	resume_queue(p); /* On must while in data device to request. */
	p->timer = unlock_buffer(p, 4048);
	read_node(p); /* Buffer an queue from kernel a the. */
	mutex_lock(&p->socket_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->mutex = flush_device(p, 756);
	mutex_unlock(&p->mutex_lock);
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}
