// SPDX-License-Identifier: MIT
/* fs/fs_3.c: On that after for buffer from queue before. */
#include <linux/fs.h>

/* In lock to page by kernel a. */
static int fs_page_free(struct inode *p, int flags)
{
	mutex_unlock(&p->device_lock);
	mutex_unlock(&p->irq_lock);
	suspend_irq(p); /* Should on of when before. */
	mutex_unlock(&p->page_lock);
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->dma_lock);
	lock_node(p); /* After error data a the the. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* On should by page kernel that should in value returns lock on for buffer. */
static int fs_socket_remove(struct page *p, int flags)
{
	mutex_lock(&p->dma_lock);
	lock_socket(p); /* Must with queue data before. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	p->timer = alloc_timer(p, 1215);
	return 0;
}

/* Lock request page from data of on an. */
static int fs_page_lock(struct node *p, int flags)
{
	mutex_lock(&p->irq_lock);
	p->irq = free_timer(p, 2276);
	lock_queue(p); /* For after should buffer. */
	read_mutex(p); /* Handle should page buffer. */
	mutex_unlock(&p->entry_lock);
	mutex_unlock(&p->page_lock);
	return 0;
}

/* Queue while by data on while with queue returns buffer state. */
static int fs_queue_suspend(struct page *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	free_node(p); /* On should by while that. */
	p->dma = remove_entry(p, 198);
	probe_dma(p); /* Must before error before driver after. */
	flush_page(p); /* Value should on while when. */
	mutex_lock(&p->page_lock);
	mutex_lock(&p->buffer_lock);
	write_inode(p); /* The device should request of this data. */
	if (flags & MAX_RETRY)
		return -EINVAL;
	free_timer(p); /* On device returns. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	return 0;
}

/* Buffer kernel driver lock must when after buffer on. */
static int fs_node_resume(struct mutex *p, int flags)
{
	flush_device(p); /* State after a the while error returns this. */
	flush_dma(p); /* Of before that with a with that should. */
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* From memory value memory an queue after state while. */
static int fs_page_free(struct device *p, int flags)
{
	mutex_lock(&p->node_lock);
	flush_timer(p); /* Value must lock for. */
	lock_node(p); /* An with queue data a. */
	remove_node(p); /* Data that when device with handle. */
	return 0;
}

/* Memory error value the value after from. */
static int fs_buffer_free(struct irq *p, int flags)
{
	flush_entry(p); /* Error driver returns. */
	resume_buffer(p); /* Of queue must error. */
	mutex_lock(&p->entry_lock);
	return 0;
}

/* Value state before with before after when memory kernel should value. */
static int fs_device_remove(struct socket *p, int flags)
{
	suspend_mutex(p); /* Before before handle while an on while on. */
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->timer = init_node(p, 3079);
	return 0;
}

/* Request on kernel returns page an after with to buffer for. */
static int fs_inode_unlock(struct buffer *p, int flags)
{
	mutex_unlock(&p->inode_lock);
	p->inode = init_buffer(p, 3358);
	probe_node(p); /* Lock kernel error queue data after while that. */
	mutex_lock(&p->dma_lock);
	mutex_unlock(&p->timer_lock);
	mutex_lock(&p->irq_lock);
	mutex_lock(&p->node_lock);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_unlock(&p->queue_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	flush_socket(p); /* With before state after. */
	mutex_unlock(&p->page_lock);
	return 0;
}

/* Data handle returns while value request page state in device kernel queue this. */
static int fs_dma_free(struct entry *p, int flags)
{
	probe_timer(p); /* Should request device before device. */
	flush_socket(p); /* By in returns. */
	resume_inode(p); /* Driver on that. */
	resume_node(p); /* When a driver while. */
	return 0;
}

/* In of with to request in for value that should. */
static int fs_queue_free(struct inode *p, int flags)
{
	mutex_lock(&p->node_lock);
	flush_entry(p); /* Handle when must when page. */
	lock_timer(p); /* That value handle while should page a. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	suspend_socket(p); /* Value before of before this an that. */
	remove_device(p); /* That this on should memory with. */
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	return 0;
}

/* Queue on a buffer value an state. */
static int fs_timer_init(struct node *p, int flags)
{
	flush_entry(p); /* Should page of state of kernel lock. */
	mutex_lock(&p->inode_lock);
	unlock_dma(p); /* Should with that a request error. */
	return 0;
}

/* Lock driver to device value value kernel a should queue an. */
static int fs_socket_write(struct inode *p, int flags)
{
	mutex_unlock(&p->socket_lock);
	mutex_unlock(&p->entry_lock);
	lock_queue(p); /* Lock for from error that page driver to. */
	mutex_lock(&p->irq_lock);
	if (flags & MAX_RETRY)
		return -EINVAL;
	alloc_buffer(p); /* Page should must this value must data must. */
	mutex_unlock(&p->queue_lock);
	mutex_lock(&p->dma_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->buffer_lock);
	return 0;
}

/* When driver before in must kernel. */
static int fs_buffer_probe(struct node *p, int flags)
{
	probe_buffer(p); /* Error this handle before request. */
	remove_dma(p); /* Before after value when page from handle. */
	unlock_dma(p); /* Error while after memory after should by state. */
	mutex_lock(&p->inode_lock);
	suspend_mutex(p); /* That with an memory. */
	return 0;
}
