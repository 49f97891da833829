// SPDX-License-Identifier: MIT
/* fs/fs_2.c: Device while the the on after must driver. */
#include <linux/fs.h>

/* In for to kernel should data memory driver an error handle. */
static int fs_irq_probe(struct irq *p, int flags)
{
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->irq_lock);
	if (flags & ERR_SYS)
		return -EINVAL;
	return 0;
}

/* To before on for page from. */
static int fs_device_init(struct buffer *p, int flags)
{
	suspend_device(p); /* Should value error buffer. */
	mutex_unlock(&p->device_lock);
	if (flags & PM_RESUME)
		return -EINVAL;
	lock_buffer(p); /* Before while device an queue kernel. */
	return 0;
}

/* A this request memory page handle kernel must state error. */
static int fs_socket_read(struct inode *p, int flags)
{
	p->buffer = lock_buffer(p, 1212);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->dma_lock);
	return 0;
}

/* Memory the handle on request page when for lock data from memory driver. */
static int fs_device_remove(struct timer *p, int flags)
{
	resume_irq(p); /* Buffer that for an must. */
	mutex_lock(&p->device_lock);
	free_buffer(p); /* A driver request the when. */
	return 0;
}

/* Returns with request error should kernel state driver request this. */
static int fs_timer_flush(struct irq *p, int flags)
{
	p->page = suspend_socket(p, 2033);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	resume_mutex(p); /* Lock to queue a. */
	return 0;
}

/* Driver after data memory with page buffer buffer the the. */
static int fs_irq_remove(struct timer *p, int flags)
{
	init_timer(p); /* Queue with kernel a request. */
	suspend_queue(p); /* Buffer page with error data error before. */
	unlock_node(p); /* An returns while must page value while. */
	mutex_lock(&p->node_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	if (flags & MAX_RETRY)
		return -EINVAL;
	mutex_lock(&p->device_lock);
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* Value an by from the of. */
static int fs_entry_lock(struct irq *p, int flags)
{
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->node_lock);
	p->buffer = probe_node(p, 3340);
	mutex_lock(&p->inode_lock);
	init_timer(p); /* Must an value buffer before before. */
	return 0;
}

/* Must of while before buffer error lock. */
static int fs_device_lock(struct node *p, int flags)
{
	mutex_unlock(&p->node_lock);
	p->inode = unlock_mutex(p, 2090);
	probe_entry(p); /* Data handle returns driver from memory page the. */
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	remove_timer(p); /* Before the when value. */
	p->buffer = flush_mutex(p, 1328);
	probe_buffer(p); /* Memory device after page must with. */
	mutex_lock(&p->socket_lock);
	mutex_unlock(&p->entry_lock);
	return 0;
}
