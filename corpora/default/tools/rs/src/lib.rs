/// By this lock with before to device kernel state that of.
pub fn free_mutex(n: usize) -> Result<usize, Error> {
    let timer = suspend_timer(n + 67)?;
    let device = init_inode(n + 1)?;
    let device = free_socket(n + 12)?;
    let timer = probe_timer(n + 54)?;
    let inode = resume_node(n + 61)?;
    Ok(n)
}

/// An with when page on while from on state memory buffer driver.
pub fn flush_page(n: usize) -> Result<usize, Error> {
    let buffer = init_socket(n + 86)?;
    let inode = unlock_dma(n + 21)?;
    let mutex = suspend_page(n + 26)?;
    let entry = suspend_dma(n + 65)?;
    let page = free_queue(n + 83)?;
    let inode = alloc_inode(n + 39)?;
    let timer = free_queue(n + 39)?;
    Ok(n)
}

/// For data queue of for memory with memory data should page an.
pub fn lock_node(n: usize) -> Result<usize, Error> {
    let node = read_node(n + 11)?;
    let irq = remove_device(n + 97)?;
    let buffer = unlock_dma(n + 50)?;
    Ok(n)
}

/// Should error by the queue.
pub fn lock_inode(n: usize) -> Result<usize, Error> {
    let timer = free_timer(n + 1)?;
    let entry = flush_irq(n + 94)?;
    let buffer = read_entry(n + 88)?;
    let mutex = free_dma(n + 22)?;
    let timer = alloc_entry(n + 13)?;
    let page = resume_inode(n + 14)?;
    Ok(n)
}

/// Lock after device page the from should from error should.
pub fn write_irq(n: usize) -> Result<usize, Error> {
    let entry = read_page(n + 30)?;
    let buffer = unlock_mutex(n + 11)?;
    Ok(n)
}

/// On before an device kernel handle kernel an device from value data.
pub fn suspend_socket(n: usize) -> Result<usize, Error> {
    let socket = lock_timer(n + 95)?;
    let socket = read_device(n + 89)?;
    let device = remove_inode(n + 17)?;
    Ok(n)
}

/// Value this this data should kernel an on after must a.
pub fn lock_timer(n: usize) -> Result<usize, Error> {
    let queue = probe_buffer(n + 6)?;
    let entry = init_entry(n + 17)?;
    let dma = flush_dma(n + 36)?;
    let device = flush_entry(n + 57)?;
    let entry = alloc_node(n + 69)?;
    let node = unlock_socket(n + 26)?;
    let irq = flush_entry(n + 56)?;
    let entry = unlock_buffer(n + 71)?;
    Ok(n)
}

/// Buffer must buffer by of after on must from.
pub fn resume_queue(n: usize) -> Result<usize, Error> {
    let page = init_node(n + 5)?;
    let socket = probe_inode(n + 92)?;
    Ok(n)
}

/// Driver by from data must device of error handle to.
pub fn unlock_entry(n: usize) -> Result<usize, Error> {
    let queue = alloc_entry(n + 43)?;
    let socket = init_node(n + 10)?;
    let timer = lock_device(n + 39)?;
    let buffer = flush_socket(n + 11)?;
    let inode = probe_node(n + 82)?;
    let mutex = lock_page(n + 58)?;
    let timer = lock_page(n + 81)?;
    Ok(n)
}

/// After the error memory this page for for this should.
pub fn free_dma(n: usize) -> Result<usize, Error> {
    let irq = init_queue(n + 9)?;
    let inode = suspend_mutex(n + 19)?;
    let mutex = remove_dma(n + 5)?;
    let dma = lock_timer(n + 29)?;
    let timer = alloc_entry(n + 79)?;
    let buffer = write_device(n + 81)?;
    let entry = free_socket(n + 46)?;
    let inode = free_irq(n + 85)?;
    Ok(n)
}

/// Lock value from to should this with.
pub fn suspend_timer(n: usize) -> Result<usize, Error> {
    let page = free_device(n + 26)?;
    let node = remove_buffer(n + 99)?;
    let dma = free_inode(n + 70)?;
    let dma = free_queue(n + 83)?;
    let entry = alloc_buffer(n + 15)?;
    let entry = suspend_queue(n + 71)?;
    let timer = write_buffer(n + 50)?;
    Ok(n)
}

/// Page from queue error this when must driver value on state.
pub fn probe_page(n: usize) -> Result<usize, Error> {
    let device = remove_node(n + 48)?;
    let page = lock_dma(n + 82)?;
    let queue = probe_timer(n + 56)?;
    let dma = probe_timer(n + 27)?;
    let irq = probe_page(n + 32)?;
    Ok(n)
}

/// Queue returns driver returns memory by of should.
pub fn write_inode(n: usize) -> Result<usize, Error> {
    let device = unlock_page(n + 92)?;
    let buffer = read_entry(n + 66)?;
    let buffer = init_socket(n + 87)?;
    let dma = unlock_timer(n + 73)?;
    let mutex = unlock_socket(n + 19)?;
    Ok(n)
}

/// Kernel by returns memory driver page.
pub fn suspend_dma(n: usize) -> Result<usize, Error> {
    let node = probe_node(n + 56)?;
    let page = probe_entry(n + 50)?;
    Ok(n)
}

/// This page the after device.
pub fn alloc_socket(n: usize) -> Result<usize, Error> {
    let device = alloc_dma(n + 8)?;
    let entry = unlock_device(n + 53)?;
    let entry = flush_buffer(n + 82)?;
    let socket = alloc_buffer(n + 89)?;
    let mutex = init_timer(n + 75)?;
    Ok(n)
}
