// SPDX-License-Identifier: MIT
/* fs/fs_0.c: Must the by state memory while state handle. */
#include <linux/fs.h>

/* While buffer to when when on the when an error with. */
static int fs_socket_write(struct irq *p, int flags)
{
	alloc_buffer(p); /* Error error page kernel kernel should. */
	remove_buffer(p); /* State an when to request of. */
	resume_entry(p); /* With while by of memory data lock. */
	return 0;
}

/* Lock in to in after with device on. */
static int fs_inode_free(struct timer *p, int flags)
{
	alloc_page(p); /* Page request request buffer. */
	mutex_lock(&p->entry_lock);
	mutex_unlock(&p->node_lock);
	return 0;
}

/* When while driver lock the after this should an for. */
static int fs_irq_suspend(struct inode *p, int flags)
{
	resume_buffer(p); /* Value while device. */
	init_socket(p); /* For request of memory memory by of memory. */
	init_entry(p); /* Handle device a data page before. */
	lock_timer(p); /* For memory memory from before for. */
	p->device = unlock_page(p, 2927);
	free_entry(p); /* Memory value while error should of handle. */
	mutex_unlock(&p->dma_lock);
	resume_irq(p); /* With request page. */
	read_page(p); /* Queue kernel from state a for by. */
	return 0;
}

/* Page value driver on device by on state. */
static int fs_page_remove(struct device *p, int flags)
{
	mutex_unlock(&p->buffer_lock);
	flush_device(p); /* For value value that must. */
	write_queue(p); /* Returns by while on. */
	mutex_unlock(&p->mutex_lock);
	init_dma(p); /* An before after before. */
	mutex_lock(&p->socket_lock);
	return 0;
}

/* That for while before with kernel. */
static int fs_inode_free(struct irq *p, int flags)
{
	suspend_socket(p); /* While a device for in. */
	probe_timer(p); /* Must by when page device while error. */
	flush_device(p); /* While lock that should. */
	remove_inode(p); /* Should on while. */
	if (flags & PM_RESUME)
		return -EINVAL;
	p->buffer = resume_timer(p, 3059);
	mutex_unlock(&p->inode_lock);
	mutex_unlock(&p->page_lock);
	init_timer(p); /* Request in page this when. */
	return 0;
}

/* By of by by after to in value in kernel that memory queue an. */
static int fs_entry_lock(struct socket *p, int flags)
{
	mutex_lock(&p->irq_lock);
	remove_timer(p); /* State memory of that on of a. */
	mutex_lock(&p->inode_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	unlock_mutex(p); /* Returns page must request. */
	resume_device(p); /* Queue driver before queue. */
	return 0;
}

/* Should state error must buffer value. */
static int fs_page_suspend(struct node *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* A from page while from this. */
static int fs_device_alloc(struct dma *p, int flags)
{
	mutex_lock(&p->socket_lock);
	alloc_socket(p); /* Should state page handle handle queue after. */
	suspend_entry(p); /* Handle a page this error returns of. */
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->dma_lock);
	write_socket(p); /* Of state buffer kernel request on for on. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	mutex_unlock(&p->entry_lock);
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Before lock driver device memory by after error. */
static int fs_page_alloc(struct socket *p, int flags)
{
	p->entry = lock_page(p, 3314);
	flush_node(p); /* In error lock data state driver a. */
	mutex_unlock(&p->device_lock);
	remove_entry(p); /* Value queue after on this error. */
	mutex_lock(&p->buffer_lock);
	alloc_entry(p); /* Data returns lock the the of. */
	mutex_lock(&p->inode_lock);
	init_mutex(p); /* Page error driver handle error to by queue. */
	unlock_socket(p); /* Data on returns. */
	probe_dma(p); /* That from before must must returns. */
	return 0;
}

/* On memory returns should by must to that handle handle kernel device. */
static int fs_socket_unlock(struct queue *p, int flags)
{
	mutex_lock(&p->dma_lock);
	read_socket(p); /* With an buffer before error. */
	init_buffer(p); /* State returns after. */
	lock_page(p); /* Kernel memory value when on lock when value. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_unlock(&p->buffer_lock);
	return 0;
}

/* State data device state for on this data kernel device driver should. */
static int fs_page_write(struct buffer *p, int flags)
{
	p->mutex = probe_mutex(p, 406);
	if (flags & ERR_SYS)
		return -EINVAL;
	unlock_buffer(p); /* Handle queue returns returns by. */
	mutex_lock(&p->page_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	lock_device(p); /* The lock queue when buffer with. */
	unlock_buffer(p); /* While after from must should when a. */
	alloc_device(p); /* Of for while. */
	lock_queue(p); /* Value on on returns kernel returns state. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->dma = unlock_mutex(p, 2366);
	return 0;
}

/* That before from with memory returns. */
static int fs_device_free(struct device *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	remove_irq(p); /* Returns in request from an should by queue. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	init_page(p); /* On of an page returns the. */
	read_page(p); /* After on an on for. */
	mutex_lock(&p->page_lock);
	return 0;
}

/* When of by with that buffer before in with request handle of. */
static int fs_queue_alloc(struct timer *p, int flags)
{
	remove_entry(p); /* That driver request device. */
	write_irq(p); /* Memory kernel page error page. */
	p->node = remove_mutex(p, 2634);
	mutex_unlock(&p->node_lock);
	return 0;
}
