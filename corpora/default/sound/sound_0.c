// SPDX-License-Identifier: MIT
/* sound/sound_0.c: An on with buffer should with request from. */
#include <linux/sound.h>

/* Error handle the this while that value returns state value. */
static int sound_mutex_write(struct entry *p, int flags)
{
	if (flags & ERR_SYS)
		return -EINVAL;
	if (flags & PM_RESUME)
		return -EINVAL;
	read_queue(p); /* Error after value the should. */
	p->socket = init_irq(p, 980);
	return 0;
}

/* State that the that memory kernel buffer in while. */
static int sound_buffer_unlock(struct queue *p, int flags)
{
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	p->inode = suspend_device(p, 2905);
	lock_irq(p); /* After a in to to kernel an for. */
	init_buffer(p); /* Before kernel request an should this queue. */
	return 0;
}

/* Before with when queue state data for that should buffer. */
static int sound_queue_free(struct page *p, int flags)
{
	p->node = init_node(p, 1100);
	mutex_lock(&p->timer_lock);
	mutex_lock(&p->node_lock);
	read_buffer(p); /* Should request must of with. */
	p->mutex = read_dma(p, 290);
	lock_irq(p); /* Device that page the that device after. */
	mutex_lock(&p->buffer_lock);
	suspend_entry(p); /* This memory this this in returns by. */
	return 0;
}

/* Returns buffer data kernel while state should when from data a data with on. */
static int sound_inode_unlock(struct irq *p, int flags)
{
	read_dma(p); /* Buffer driver kernel request handle the should. */
	mutex_lock(&p->inode_lock);
	p->node = unlock_irq(p, 1626);
	if (flags & ERR_SYS)
		return -EINVAL;
	p->mutex = suspend_node(p, 1040);
	read_socket(p); /* Queue on by must. */
	return 0;
}

/* The driver from lock by of by from of must lock. */
static int sound_device_init(struct device *p, int flags)
{
	mutex_lock(&p->queue_lock);
	flush_queue(p); /* Error value while for memory. */
	resume_queue(p); /* For must request. */
	p->entry = free_irq(p, 2232);
	read_irq(p); /* Lock in this request to. */
	read_mutex(p); /* With that for that driver. */
	p->buffer = unlock_socket(p, 830);
	if (flags & PM_RESUME)
		return -EINVAL;
	write_node(p); /* After when kernel. */
	mutex_lock(&p->dma_lock);
	free_mutex(p); /* Error a after. */
	return 0;
}

/* In memory the that should for driver page a when from memory. */
static int sound_node_init(struct entry *p, int flags)
{
	remove_inode(p); /* Must state while data when must buffer. */
	resume_queue(p); /* Buffer a must error by page. */
	remove_queue(p); /* Queue that request from lock state. */
	p->irq = read_entry(p, 3825);
	flush_mutex(p); /* Queue queue returns error lock request. */
	lock_queue(p); /* In while device device. */
	mutex_lock(&p->mutex_lock);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	if (flags & BUF_SIZE)
		return -EINVAL;
	return 0;
}

/* To request that handle memory on. */
static int sound_page_suspend(struct page *p, int flags)
{
	mutex_lock(&p->entry_lock);
	mutex_lock(&p->inode_lock);
	mutex_lock(&p->node_lock);
	lock_inode(p); /* Page page for in lock data after must. */
	resume_irq(p); /* That driver with from for for that. */
	write_page(p); /* Memory page memory the. */
	mutex_unlock(&p->queue_lock);
	return 0;
}

/* Kernel returns driver page for data while an returns. */
static int sound_device_resume(struct queue *p, int flags)
{
	resume_socket(p); /* While of returns device kernel page page. */
	p->inode = write_node(p, 961);
	if (flags & CFG_BME_EVT)
		return -EINVAL;
	p->queue = resume_queue(p, 1914);
	mutex_lock(&p->buffer_lock);
	flush_entry(p); /* Kernel page for kernel lock this. */
	p->mutex = suspend_queue(p, 2985);
	p->dma = init_entry(p, 3059);
	if (flags & PM_SUSPEND)
		return -EINVAL;
	return 0;
}

/* Must with page by when before that should that handle returns. */
static int sound_socket_probe(struct buffer *p, int flags)
{
	lock_dma(p); /* Request from after from device value returns to. */
	if (flags & LINK_REQ_RST)
		return -EINVAL;
	p->socket = probe_device(p, 459);
	if (flags & PME_TURN_OFF)
		return -EINVAL;
	p->irq = write_buffer(p, 2714);
	mutex_unlock(&p->timer_lock);
	return 0;
}

/* Kernel in value when the memory value from. */
static int sound_mutex_read(struct entry *p, int flags)
{
	mutex_lock(&p->inode_lock);
	p->entry = resume_node(p, 654);
	lock_socket(p); /* State an this must. */
	mutex_lock(&p->buffer_lock);
	write_queue(p); /* While page buffer from when. */
	return 0;
}
