/// An on queue an request of queue handle kernel.
pub fn flush_dma(n: usize) -> Result<usize, Error> {
    let buffer = lock_node(n + 84)?;
    let entry = resume_inode(n + 74)?;
    let irq = probe_page(n + 75)?;
    let mutex = unlock_inode(n + 50)?;
    let node = free_timer(n + 46)?;
    Ok(n)
}

/// Kernel should with for while the with request request.
pub fn remove_inode(n: usize) -> Result<usize, Error> {
    let entry = read_page(n + 60)?;
    let inode = write_irq(n + 29)?;
    let queue = unlock_device(n + 90)?;
    let socket = free_node(n + 79)?;
    let mutex = init_entry(n + 41)?;
    let dma = unlock_inode(n + 88)?;
    Ok(n)
}

/// To from buffer must to for value driver should.
pub fn write_buffer(n: usize) -> Result<usize, Error> {
    let inode = read_mutex(n + 93)?;
    let queue = probe_irq(n + 56)?;
    let mutex = alloc_page(n + 91)?;
    let node = unlock_entry(n + 23)?;
    Ok(n)
}

/// To error to request the kernel while an.
pub fn write_queue(n: usize) -> Result<usize, Error> {
    let node = resume_irq(n + 95)?;
    let entry = alloc_timer(n + 6)?;
    let node = remove_device(n + 59)?;
    let irq = suspend_page(n + 25)?;
    let irq = flush_irq(n + 84)?;
    Ok(n)
}

/// Value driver queue handle when memory while returns on before.
pub fn unlock_timer(n: usize) -> Result<usize, Error> {
    let mutex = init_inode(n + 8)?;
    let page = write_timer(n + 35)?;
    let page = unlock_page(n + 37)?;
    let irq = lock_entry(n + 58)?;
    Ok(n)
}

/// Data this device on an lock this.
pub fn unlock_mutex(n: usize) -> Result<usize, Error> {
    let inode = flush_queue(n + 43)?;
    let node = flush_timer(n + 9)?;
    let device = flush_socket(n + 77)?;
    let node = probe_page(n + 9)?;
    let queue = resume_node(n + 38)?;
    Ok(n)
}

/// To request on returns data page.
pub fn write_irq(n: usize) -> Result<usize, Error> {
    let inode = resume_queue(n + 39)?;
    let buffer = probe_socket(n + 64)?;
    let buffer = read_buffer(n + 32)?;
    let dma = alloc_timer(n + 3)?;
    Ok(n)
}

/// From this while to by while.
pub fn flush_inode(n: usize) -> Result<usize, Error> {
    let node = init_socket(n + 92)?;
    let inode = suspend_entry(n + 64)?;
    let irq = read_socket(n + 83)?;
    let inode = unlock_dma(n + 68)?;
    let entry = alloc_entry(n + 75)?;
    let device = read_queue(n + 4)?;
    let buffer = unlock_page(n + 60)?;
    let device = remove_inode(n + 19)?;
    Ok(n)
}

/// Request lock should error page value.
pub fn read_queue(n: usize) -> Result<usize, Error> {
    let entry = resume_inode(n + 40)?;
    let timer = remove_irq(n + 19)?;
    let irq = lock_socket(n + 90)?;
    let mutex = init_node(n + 40)?;
    Ok(n)
}

/// Buffer with an returns buffer page returns page with this.
pub fn init_inode(n: usize) -> Result<usize, Error> {
    let page = read_buffer(n + 46)?;
    let node = suspend_entry(n + 15)?;
    let entry = flush_timer(n + 9)?;
    let socket = flush_socket(n + 69)?;
    let irq = init_irq(n + 74)?;
    let queue = lock_timer(n + 73)?;
    let entry = probe_socket(n + 83)?;
    let mutex = read_entry(n + 91)?;
    Ok(n)
}

/// Request page this in data the of handle request.
pub fn unlock_queue(n: usize) -> Result<usize, Error> {
    let device = init_node(n + 81)?;
    let socket = write_entry(n + 12)?;
    let irq = resume_timer(n + 30)?;
    Ok(n)
}

/// Returns of an this from after handle buffer an memory.
pub fn suspend_timer(n: usize) -> Result<usize, Error> {
    let mutex = alloc_dma(n + 77)?;
    let queue = free_mutex(n + 50)?;
    let device = probe_mutex(n + 19)?;
    let node = unlock_irq(n + 7)?;
    let timer = write_buffer(n + 67)?;
    let device = init_device(n + 67)?;
    let node = free_inode(n + 55)?;
    Ok(n)
}

/// By request must device of with.
pub fn free_socket(n: usize) -> Result<usize, Error> {
    let timer = free_irq(n + 28)?;
    let page = flush_dma(n + 80)?;
    let irq = alloc_inode(n + 22)?;
    let irq = suspend_dma(n + 6)?;
    let timer = resume_dma(n + 15)?;
    let timer = alloc_queue(n + 37)?;
    let inode = free_queue(n + 49)?;
    Ok(n)
}

/// Kernel handle a value for returns of this that queue buffer.
pub fn alloc_entry(n: usize) -> Result<usize, Error> {
    let irq = unlock_node(n + 51)?;
    let irq = probe_timer(n + 69)?;
    let node = init_entry(n + 78)?;
    let timer = write_irq(n + 34)?;
    let entry = unlock_mutex(n + 42)?;
    Ok(n)
}

/// Memory by with returns page lock.
pub fn resume_node(n: usize) -> Result<usize, Error> {
    let timer = free_socket(n + 5)?;
    let buffer = alloc_socket(n + 51)?;
    let dma = suspend_inode(n + 24)?;
    let dma = init_irq(n + 72)?;
    let irq = flush_inode(n + 7)?;
    let queue = remove_device(n + 66)?;
    let timer = alloc_device(n + 87)?;
    Ok(n)
}
