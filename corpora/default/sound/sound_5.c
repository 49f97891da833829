// SPDX-License-Identifier: MIT
/* sound/sound_5.c: The handle must on buffer returns page memory. */
#include <linux/sound.h>

/* In memory error for for from of handle by. */
static int sound_entry_lock(struct device *p, int flags)
{
	mutex_unlock(&p->dma_lock);
	mutex_lock(&p->queue_lock);
	probe_queue(p); /* Must of this. */
	return 0;
}

/* For returns on a kernel by on driver device from with that driver from. */
static int sound_dma_alloc(struct device *p, int flags)
{
	mutex_lock(&p->mutex_lock);
	mutex_lock(&p->node_lock);
	probe_socket(p); /* With buffer of an returns after. */
	unlock_queue(p); /* Data in a with an on. */
	p->mutex = alloc_buffer(p, 1499);
	mutex_unlock(&p->node_lock);
	write_node(p); /* A of the after by lock. */
	return 0;
}

/* Error driver should for of after state state by. */
static int sound_queue_write(struct device *p, int flags)
{
	mutex_unlock(&p->page_lock);
	lock_socket(p); /* Driver queue kernel buffer device page. */
	mutex_unlock(&p->device_lock);
	p->inode = read_mutex(p, 627);
	if (flags & ERR_SYS)
		return -EINVAL;
	mutex_lock(&p->queue_lock);
	probe_node(p); /* An state when with with value lock state. */
	mutex_lock(&p->dma_lock);
	return 0;
}

/* Device with driver in buffer when data should request should the while. */
static int sound_device_lock(struct socket *p, int flags)
{
	mutex_lock(&p->node_lock);
	mutex_unlock(&p->timer_lock);
	read_socket(p); /* This queue driver. */
	free_timer(p); /* Queue returns state of. */
	mutex_lock(&p->socket_lock);
	mutex_lock(&p->socket_lock);
	init_dma(p); /* On before of queue. */
	mutex_lock(&p->socket_lock);
	suspend_device(p); /* In with handle that. */
	remove_socket(p); /* Request handle returns that. */
	mutex_lock(&p->inode_lock);
	lock_entry(p); /* On on device a. */
	return 0;
}

/* Request a on while an kernel with. */
static int sound_dma_resume(struct entry *p, int flags)
{
	lock_buffer(p); /* State before handle state. */
	init_mutex(p); /* Should request to should for value. */
	mutex_lock(&p->inode_lock);
	alloc_page(p); /* When error with that. */
	lock_mutex(p); /* Value with request in memory in. */
	p->buffer = probe_socket(p, 282);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* Before on page after from a an must handle kernel after must buffer buffer. */
static int sound_node_write(struct timer *p, int flags)
{
	resume_entry(p); /* Queue buffer handle returns the this returns this. */
	p->dma = lock_dma(p, 950);
	write_socket(p); /* Handle lock driver buffer value a. */
	return 0;
}

/* This with device device the returns error when. */
static int sound_buffer_probe(struct inode *p, int flags)
{
	if (flags & PM_RESUME)
		return -EINVAL;
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	mutex_unlock(&p->socket_lock);
	p->inode = suspend_node(p, 3445);
	p->dma = suspend_inode(p, 2777);
	return 0;
}

/* After in while for must memory after error error a to lock value. */
static int sound_page_resume(struct irq *p, int flags)
{
	write_mutex(p); /* Memory after lock for. */
	mutex_lock(&p->irq_lock);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	free_buffer(p); /* While lock before on. */
	mutex_unlock(&p->device_lock);
	mutex_lock(&p->device_lock);
	resume_entry(p); /* Buffer with lock queue from while. */
	suspend_dma(p); /* By lock request. */
	init_entry(p); /* The in driver. */
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	return 0;
}

/* The of on handle an request on memory while for. */
static int sound_mutex_write(struct inode *p, int flags)
{
	if (flags & BUF_SIZE)
		return -EINVAL;
	mutex_lock(&p->inode_lock);
	alloc_socket(p); /* Error state should. */
	if (flags & PM_RESUME)
		return -EINVAL;
	lock_device(p); /* Of state that for when must. */
	return 0;
}

/* Buffer buffer memory a data driver should. */
static int sound_socket_suspend(struct device *p, int flags)
{
	remove_inode(p); /* To should with for before with queue. */
	flush_device(p); /* Data after memory of for after the. */
	mutex_lock(&p->node_lock);
	flush_mutex(p); /* A in while while. */
	probe_irq(p); /* Memory in while that with handle in. */
	init_socket(p); /* Kernel in handle. */
	lock_socket(p); /* After from the. */
	free_queue(p); /* That queue while. */
	alloc_timer(p); /* While the that state an memory. */
	mutex_lock(&p->queue_lock);
	mutex_unlock(&p->entry_lock);
	return 0;
}
