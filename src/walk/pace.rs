//! How far a walk may go: its deadline, the cursor it resumes after, and which skip counts are
//! its own. One rule for a live walk ([`super::Walk::run`]) and a replayed one (the index's
//! recorded file list fed to the search): a replay yields what the walk would, cut where the walk
//! would be cut, with the same counts.

use super::{WalkEnd, WalkSkips};
use crate::core::deadline::Deadline;
use std::borrow::Cow;
use std::path::Path;

/// Where a walk stands against its deadline and its resume point.
pub(crate) struct Pace<'a> {
    deadline: Option<&'a Deadline>,
    /// Everything that sorts before this path (a cursor) is passed over, its ancestors and itself
    /// kept.
    resume_after: Option<&'a Path>,
    /// The last entry past the resume point that was dealt with whole (walk order): where a walk
    /// the deadline cuts resumes. A replay lends its recorded paths (copying each path it passed
    /// was a sixth of a replaying thread's time); a live walk's are copied into one buffer.
    looked_at: Option<Cow<'a, Path>>,
    /// An entry past the resume point came already. Entries come in walk order, which is path
    /// order: every later one is past it too, and needs no path comparison (a page resumed deep
    /// in a replayed walk of 78,000 files compared each with the cursor).
    past: bool,
}

/// What a walk does with an entry it comes to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Deal with it.
    Take,
    /// It sorts before the resume point: a previous call looked at it.
    Pass,
}

impl<'a> Pace<'a> {
    pub fn new(deadline: Option<&'a Deadline>, resume_after: Option<&'a Path>) -> Self {
        Pace {
            deadline,
            resume_after,
            looked_at: None,
            past: resume_after.is_none(),
        }
    }

    /// Whether `rel` lies on the way to the resume point: before it, an ancestor of it, or it.
    #[inline]
    fn on_the_way(&self, rel: &Path) -> bool {
        !self.past
            && self
                .resume_after
                .is_some_and(|c| rel < c || c.starts_with(rel))
    }

    /// Takes the entry `rel` through the deadline and the resume point. A resumed walk passes over
    /// what came before its resume point (a previous call looked at it), enters the directories on
    /// the way to it and comes to the point itself: none of that is progress, and a deadline that
    /// cut it short would end the call where it started. Every call deals with one entry past
    /// where it started before it honours the deadline, so paging by cursor always advances,
    /// however little time a call has — except where `rules_cut` (the deadline cut the compilation
    /// of the entry's directory's ignore rules: the entry would be passed over as ignored).
    /// `check`: look at the clock for this entry (a replay looks every so many vouched-for files).
    /// `Err`: the deadline ended the walk before `rel` (with where it got to).
    pub fn arrive(&mut self, rel: &Path, rules_cut: bool, check: bool) -> Result<Step, WalkEnd> {
        self.arrive_at(rel, rules_cut, check, |looked_at| match looked_at {
            Some(Cow::Owned(p)) => {
                let p = p.as_mut_os_string();
                p.clear();
                p.push(rel.as_os_str());
            }
            _ => *looked_at = Some(Cow::Owned(rel.to_path_buf())),
        })
    }

    /// [`Pace::arrive`] for a path that outlives the walk (a recorded one): kept by reference.
    #[inline]
    pub fn arrive_lent(
        &mut self,
        rel: &'a Path,
        rules_cut: bool,
        check: bool,
    ) -> Result<Step, WalkEnd> {
        self.arrive_at(rel, rules_cut, check, |looked_at| {
            *looked_at = Some(Cow::Borrowed(rel))
        })
    }

    /// [`Pace::arrive`], with `keep` recording `rel` as the last entry looked at.
    #[inline]
    fn arrive_at(
        &mut self,
        rel: &Path,
        rules_cut: bool,
        check: bool,
        keep: impl FnOnce(&mut Option<Cow<'a, Path>>),
    ) -> Result<Step, WalkEnd> {
        if !self.on_the_way(rel) {
            // Walk order: nothing after `rel` lies on the way to the resume point.
            self.past = true;
            if (self.looked_at.is_some() || rules_cut)
                && check
                && self.deadline.is_some_and(Deadline::expired)
            {
                let at = self.looked_at.as_deref().map(Path::to_path_buf);
                return Err(WalkEnd::TimedOut(at));
            }
            // The previous entry was dealt with whole (a directory: entered); a resumed walk may
            // start after it.
            keep(&mut self.looked_at);
        }
        match self.resume_after {
            _ if self.past => Ok(Step::Take),
            Some(c) if !c.starts_with(rel) && rel < c => Ok(Step::Pass),
            _ => Ok(Step::Take),
        }
    }

    /// The skips counted on the way to the file `rel`, as the walk reports them: none on the way
    /// to its resume point (they were before it).
    #[inline]
    pub fn skips_to(&self, rel: &Path, skips: WalkSkips) -> WalkSkips {
        if self.on_the_way(rel) {
            WalkSkips::default()
        } else {
            skips
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_resumed_walk_passes_over_what_came_before_and_always_advances() {
        let spent = Deadline::detached(Duration::ZERO);
        let cursor = Path::new("b/c");
        let mut p = Pace::new(Some(&spent), Some(cursor));
        // Skips on the way to the cursor's file are not the walk's (each file's skips are asked
        // for right after it arrives, as the walk and a replay do).
        let one = WalkSkips {
            ignored: 1,
            ..WalkSkips::default()
        };
        // Before the cursor: passed over; its ancestor and itself: taken, never cut.
        assert_eq!(p.arrive(Path::new("a"), false, true), Ok(Step::Pass));
        assert_eq!(p.arrive(Path::new("b"), false, true), Ok(Step::Take));
        assert_eq!(p.arrive(cursor, false, true), Ok(Step::Take));
        assert_eq!(p.skips_to(cursor, one), WalkSkips::default());
        // One entry past it is dealt with, whatever the time; the next is cut after it.
        assert_eq!(p.arrive(Path::new("b/d"), false, true), Ok(Step::Take));
        assert_eq!(p.skips_to(Path::new("b/d"), one), one);
        assert_eq!(
            p.arrive(Path::new("b/e"), false, true),
            Err(WalkEnd::TimedOut(Some("b/d".into())))
        );
        // Without a look at the clock, nothing is cut.
        assert_eq!(p.arrive(Path::new("b/e"), false, false), Ok(Step::Take));
        // Entries come in walk order: once one came past the resume point, later ones are not
        // compared with it (a page resumed deep in a replayed walk compared every file with it).
        assert_eq!(p.arrive(Path::new("a"), false, false), Ok(Step::Take));
        assert_eq!(p.skips_to(Path::new("a"), one), one);
        // Rules cut by the deadline stop the walk before its first entry.
        let mut q = Pace::new(Some(&spent), None);
        assert_eq!(
            q.arrive(Path::new("a"), true, true),
            Err(WalkEnd::TimedOut(None))
        );
    }

    /// A replay's lent paths give the same steps and the same resume point as a walk's copied
    /// ones, the cursor's way and a cut by the deadline included.
    #[test]
    fn lent_paths_pace_as_copied_ones() {
        let spent = Deadline::detached(Duration::ZERO);
        let cursor = Path::new("b/c");
        let paths: Vec<std::path::PathBuf> = ["a", "b", "b/c", "b/d", "b/e", "c"]
            .iter()
            .map(|p| p.into())
            .collect();
        for (deadline, resume) in [
            (Some(&spent), Some(cursor)),
            (Some(&spent), None),
            (None, None),
        ] {
            let mut copied = Pace::new(deadline, resume);
            let mut lent = Pace::new(deadline, resume);
            for p in &paths {
                let a = copied.arrive(p, false, true);
                let b = lent.arrive_lent(p, false, true);
                assert_eq!(a, b, "{p:?}");
                if a.is_err() {
                    break;
                }
            }
        }
    }
}
