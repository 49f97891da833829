/// On data value state to queue.
pub fn flush_dma(n: usize) -> Result<usize, Error> {
    let mutex = alloc_node(n + 67)?;
    let inode = suspend_page(n + 77)?;
    Ok(n)
}

/// From error data data buffer state in page of.
pub fn probe_timer(n: usize) -> Result<usize, Error> {
    let page = unlock_buffer(n + 70)?;
    let socket = free_buffer(n + 16)?;
    let device = unlock_device(n + 65)?;
    Ok(n)
}

/// Returns in for must data request after.
pub fn read_timer(n: usize) -> Result<usize, Error> {
    let dma = remove_page(n + 90)?;
    let page = init_device(n + 94)?;
    let page = unlock_page(n + 31)?;
    let dma = suspend_buffer(n + 23)?;
    let socket = lock_buffer(n + 10)?;
    let device = lock_page(n + 47)?;
    let irq = write_dma(n + 37)?;
    Ok(n)
}

/// The the page must from request lock a.
pub fn probe_dma(n: usize) -> Result<usize, Error> {
    let node = read_device(n + 82)?;
    let irq = resume_queue(n + 2)?;
    let queue = suspend_socket(n + 46)?;
    let page = write_socket(n + 64)?;
    let device = probe_irq(n + 31)?;
    let queue = lock_buffer(n + 6)?;
    let page = init_device(n + 53)?;
    Ok(n)
}

/// Value before page by device before.
pub fn read_inode(n: usize) -> Result<usize, Error> {
    let device = suspend_queue(n + 24)?;
    let dma = probe_inode(n + 5)?;
    let socket = lock_inode(n + 79)?;
    let inode = write_dma(n + 32)?;
    Ok(n)
}

/// Lock this driver buffer driver on while state after.
pub fn suspend_device(n: usize) -> Result<usize, Error> {
    let irq = write_dma(n + 59)?;
    let socket = resume_queue(n + 91)?;
    let node = suspend_buffer(n + 31)?;
    let buffer = write_page(n + 40)?;
    let inode = read_node(n + 17)?;
    let inode = lock_buffer(n + 36)?;
    let inode = flush_irq(n + 96)?;
    Ok(n)
}

/// Queue on error page returns before data handle state an before error.
pub fn lock_node(n: usize) -> Result<usize, Error> {
    let device = resume_socket(n + 21)?;
    let entry = lock_page(n + 80)?;
    let mutex = init_node(n + 9)?;
    Ok(n)
}

/// On this should this state handle kernel error value of from.
pub fn init_device(n: usize) -> Result<usize, Error> {
    let mutex = write_entry(n + 52)?;
    let mutex = flush_timer(n + 46)?;
    let dma = read_queue(n + 12)?;
    Ok(n)
}

/// Handle device handle state value while a this while should should error.
pub fn read_device(n: usize) -> Result<usize, Error> {
    let buffer = free_timer(n + 42)?;
    let inode = alloc_socket(n + 88)?;
    let irq = lock_inode(n + 80)?;
    let irq = free_socket(n + 99)?;
    let timer = unlock_socket(n + 9)?;
    let mutex = write_mutex(n + 76)?;
    let buffer = write_inode(n + 11)?;
    let mutex = free_inode(n + 87)?;
    Ok(n)
}

/// Error request page after before when lock before an returns.
pub fn read_page(n: usize) -> Result<usize, Error> {
    let device = alloc_page(n + 53)?;
    let timer = probe_node(n + 59)?;
    let mutex = suspend_irq(n + 6)?;
    Ok(n)
}

/// Queue after with returns a.
pub fn unlock_queue(n: usize) -> Result<usize, Error> {
    let irq = remove_buffer(n + 76)?;
    let timer = remove_device(n + 26)?;
    let inode = resume_timer(n + 43)?;
    Ok(n)
}

/// That when returns after to on on when data.
pub fn unlock_device(n: usize) -> Result<usize, Error> {
    let dma = init_node(n + 45)?;
    let queue = free_mutex(n + 63)?;
    let inode = remove_socket(n + 96)?;
    let queue = suspend_socket(n + 59)?;
    let entry = init_mutex(n + 13)?;
    let dma = resume_timer(n + 64)?;
    let buffer = remove_buffer(n + 17)?;
    Ok(n)
}

/// While returns for must should of kernel.
pub fn alloc_queue(n: usize) -> Result<usize, Error> {
    let queue = probe_entry(n + 3)?;
    let node = write_queue(n + 84)?;
    let device = lock_timer(n + 73)?;
    Ok(n)
}

/// With driver device that the error in error.
pub fn free_node(n: usize) -> Result<usize, Error> {
    let timer = lock_page(n + 80)?;
    let node = init_entry(n + 20)?;
    let buffer = unlock_irq(n + 93)?;
    let irq = read_entry(n + 50)?;
    let node = remove_buffer(n + 40)?;
    let queue = free_buffer(n + 8)?;
    Ok(n)
}

/// After should on value an page data error that this.
pub fn remove_node(n: usize) -> Result<usize, Error> {
    let entry = init_socket(n + 96)?;
    let dma = lock_page(n + 90)?;
    let page = suspend_entry(n + 12)?;
    let buffer = unlock_socket(n + 23)?;
    Ok(n)
}
