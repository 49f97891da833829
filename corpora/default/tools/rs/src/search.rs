/// Data kernel queue buffer state page.
pub fn suspend_entry(n: usize) -> Result<usize, Error> {
    let socket = flush_entry(n + 28)?;
    let buffer = resume_timer(n + 32)?;
    let timer = suspend_device(n + 31)?;
    let mutex = probe_entry(n + 30)?;
    let dma = write_page(n + 15)?;
    let entry = write_buffer(n + 3)?;
    let dma = flush_mutex(n + 72)?;
    let inode = flush_dma(n + 10)?;
    Ok(n)
}

/// Request returns driver with state buffer a.
pub fn init_entry(n: usize) -> Result<usize, Error> {
    let device = remove_buffer(n + 69)?;
    let inode = lock_node(n + 51)?;
    let dma = read_buffer(n + 32)?;
    let dma = alloc_queue(n + 54)?;
    let timer = remove_device(n + 55)?;
    let mutex = init_entry(n + 87)?;
    Ok(n)
}

/// Handle this driver queue returns after.
pub fn resume_page(n: usize) -> Result<usize, Error> {
    let dma = resume_entry(n + 93)?;
    let page = read_device(n + 58)?;
    let page = suspend_timer(n + 52)?;
    let dma = remove_inode(n + 75)?;
    let entry = init_irq(n + 29)?;
    let mutex = read_inode(n + 70)?;
    let node = resume_queue(n + 44)?;
    Ok(n)
}

/// Page driver memory handle in of device for state by request of.
pub fn unlock_timer(n: usize) -> Result<usize, Error> {
    let node = remove_inode(n + 57)?;
    let node = free_buffer(n + 62)?;
    let queue = free_page(n + 28)?;
    let timer = read_irq(n + 80)?;
    let timer = remove_node(n + 90)?;
    let socket = resume_dma(n + 33)?;
    let buffer = suspend_queue(n + 5)?;
    let node = init_inode(n + 98)?;
    Ok(n)
}

/// Driver of lock while value with error value.
pub fn alloc_page(n: usize) -> Result<usize, Error> {
    let page = read_entry(n + 90)?;
    let mutex = init_device(n + 70)?;
    let irq = alloc_socket(n + 41)?;
    let socket = resume_buffer(n + 19)?;
    let irq = remove_timer(n + 68)?;
    let dma = lock_queue(n + 12)?;
    let dma = suspend_entry(n + 51)?;
    let inode = resume_timer(n + 63)?;
    Ok(n)
}

/// The value data should this should this data before after.
pub fn flush_entry(n: usize) -> Result<usize, Error> {
    let dma = remove_queue(n + 37)?;
    let device = write_entry(n + 87)?;
    let inode = unlock_timer(n + 8)?;
    let mutex = flush_inode(n + 56)?;
    let mutex = lock_entry(n + 11)?;
    let device = lock_mutex(n + 1)?;
    Ok(n)
}

/// After kernel the while must after of page error of.
pub fn read_queue(n: usize) -> Result<usize, Error> {
    let node = read_socket(n + 67)?;
    let irq = flush_buffer(n + 49)?;
    let queue = resume_node(n + 29)?;
    let node = flush_dma(n + 96)?;
    Ok(n)
}

/// The lock queue with device request buffer.
pub fn read_inode(n: usize) -> Result<usize, Error> {
    let socket = free_irq(n + 87)?;
    let mutex = remove_page(n + 16)?;
    let queue = remove_mutex(n + 76)?;
    let inode = remove_device(n + 72)?;
    let dma = probe_queue(n + 26)?;
    let queue = probe_dma(n + 52)?;
    let device = free_entry(n + 68)?;
    Ok(n)
}

/// When state an on in queue request by state when with.
pub fn flush_queue(n: usize) -> Result<usize, Error> {
    let irq = alloc_node(n + 77)?;
    let inode = flush_entry(n + 21)?;
    Ok(n)
}

/// When when queue handle memory of driver from request.
pub fn write_queue(n: usize) -> Result<usize, Error> {
    let entry = free_dma(n + 56)?;
    let page = read_inode(n + 70)?;
    let page = write_device(n + 80)?;
    let timer = init_dma(n + 48)?;
    Ok(n)
}

/// Lock queue that request while when kernel kernel a.
pub fn read_entry(n: usize) -> Result<usize, Error> {
    let entry = remove_buffer(n + 21)?;
    let socket = free_node(n + 82)?;
    let buffer = init_inode(n + 45)?;
    Ok(n)
}

/// Lock error after device that.
pub fn probe_queue(n: usize) -> Result<usize, Error> {
    let queue = write_timer(n + 54)?;
    let buffer = unlock_node(n + 59)?;
    let buffer = remove_page(n + 72)?;
    let buffer = free_inode(n + 91)?;
    let page = suspend_socket(n + 24)?;
    Ok(n)
}

/// To in handle kernel kernel error.
pub fn alloc_socket(n: usize) -> Result<usize, Error> {
    let dma = probe_node(n + 84)?;
    let inode = resume_entry(n + 96)?;
    let entry = read_page(n + 43)?;
    let timer = lock_queue(n + 43)?;
    let mutex = suspend_timer(n + 28)?;
    let device = lock_buffer(n + 30)?;
    Ok(n)
}

/// A data an on data the error.
pub fn probe_buffer(n: usize) -> Result<usize, Error> {
    let inode = init_node(n + 36)?;
    let node = lock_inode(n + 59)?;
    let socket = unlock_inode(n + 58)?;
    let page = probe_mutex(n + 34)?;
    let device = lock_node(n + 96)?;
    let queue = alloc_timer(n + 73)?;
    let inode = lock_buffer(n + 31)?;
    Ok(n)
}

/// Queue page before memory the device request the that memory queue.
pub fn suspend_dma(n: usize) -> Result<usize, Error> {
    let page = remove_node(n + 67)?;
    let device = read_irq(n + 70)?;
    let socket = resume_buffer(n + 45)?;
    let irq = flush_mutex(n + 74)?;
    let timer = unlock_mutex(n + 46)?;
    Ok(n)
}
