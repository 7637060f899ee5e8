//! The recording context: a per-thread stack of kernels under construction.
//!
//! `compile` pushes a `Builder`, calls the user's function, and pops it. Value handles
//! (`Int`, `Float`, `Ptr<T>`, `Bool`) are `Copy` indices into the builder's node table, tagged
//! with the builder's generation number so that a handle leaking from one kernel into another
//! is caught (as a [`BuildErrorKind::ForeignValue`] error) instead of silently reading the
//! wrong node. Mistakes are collected, never panicked on; `compile` returns them all.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::ast::{BoolExpr, Expr, Kernel, Param, Stmt, StmtKind, Type, VarDecl, VarId};
use crate::error::{BuildError, BuildErrorKind, BuildErrors, SourceLocation};

/// A reference to a value recorded in some kernel build (opaque).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handle {
    generation: u32,
    index: u32,
}

impl Handle {
    /// A handle made when no kernel was being built: every use reports an error.
    pub(crate) const POISON: Handle = Handle {
        generation: 0,
        index: 0,
    };
    /// A handle made by an operation that already reported an error in this build: uses of
    /// it report nothing more (one mistake, one message).
    pub(crate) const FAILED: Handle = Handle {
        generation: u32::MAX,
        index: 0,
    };
}

enum Node {
    Value(Arc<Expr>),
    Bool(Arc<BoolExpr>),
}

struct Block {
    stmts: Vec<Stmt>,
}

pub(crate) struct Builder {
    generation: u32,
    nodes: Vec<Node>,
    vars: Vec<VarDecl>,
    params: Vec<Param>,
    blocks: Vec<Block>,
    /// How many `where_` bodies enclose the statement being recorded.
    where_depth: u32,
    errors: Vec<BuildError>,
    location: SourceLocation,
}

thread_local! {
    static BUILDERS: RefCell<Vec<Builder>> = const { RefCell::new(Vec::new()) };
}

static NEXT_GENERATION: AtomicU32 = AtomicU32::new(1);

/// Run `f` on the innermost kernel under construction, or return `None` when there is none.
pub(crate) fn with_builder<R>(f: impl FnOnce(&mut Builder) -> R) -> Option<R> {
    BUILDERS.with(|stack| stack.borrow_mut().last_mut().map(f))
}

/// Owns one kernel build on this thread; dropping it (e.g. while unwinding from a panic in
/// the user's function) discards the build so the next `compile` starts clean.
pub(crate) struct BuildGuard {
    generation: u32,
    finished: bool,
}

impl BuildGuard {
    pub(crate) fn begin(location: SourceLocation) -> BuildGuard {
        let generation = NEXT_GENERATION.fetch_add(1, Ordering::Relaxed).max(1);
        BUILDERS.with(|stack| {
            stack.borrow_mut().push(Builder {
                generation,
                nodes: Vec::new(),
                vars: Vec::new(),
                params: Vec::new(),
                blocks: vec![Block { stmts: Vec::new() }],
                where_depth: 0,
                errors: Vec::new(),
                location,
            })
        });
        BuildGuard {
            generation,
            finished: false,
        }
    }

    /// Pop the build and turn it into a kernel, or every error it recorded.
    pub(crate) fn finish(mut self) -> Result<Kernel, BuildErrors> {
        self.finished = true;
        let builder = BUILDERS.with(|stack| {
            let mut stack = stack.borrow_mut();
            match stack.last() {
                Some(top) if top.generation == self.generation => stack.pop(),
                _ => None,
            }
        });
        let Some(mut builder) = builder else {
            // Only reachable if a build guard was leaked with mem::forget; report it rather
            // than panic.
            return Err(BuildErrors(vec![BuildError {
                kind: BuildErrorKind::NoKernel,
                location: SourceLocation::caller(),
            }]));
        };
        let body = builder
            .blocks
            .pop()
            .map(|block| block.stmts)
            .unwrap_or_default();
        let kernel = Kernel {
            params: builder.params,
            vars: builder.vars,
            body,
            location: builder.location,
        };
        super::check::check_gather_fifo(&kernel, &mut builder.errors);
        super::check::check_uniform_stream(&kernel, &mut builder.errors);
        if builder.errors.is_empty() {
            Ok(kernel)
        } else {
            Err(BuildErrors(builder.errors))
        }
    }
}

impl Drop for BuildGuard {
    fn drop(&mut self) {
        if !self.finished {
            BUILDERS.with(|stack| {
                let mut stack = stack.borrow_mut();
                if stack.last().map(|b| b.generation) == Some(self.generation) {
                    stack.pop();
                }
            });
        }
    }
}

impl Builder {
    pub(crate) fn error(&mut self, kind: BuildErrorKind, location: SourceLocation) {
        self.errors.push(BuildError { kind, location });
    }

    fn check(&mut self, handle: Handle, location: SourceLocation) -> Option<usize> {
        if handle == Handle::FAILED && !self.errors.is_empty() {
            None
        } else if handle.generation == self.generation {
            Some(handle.index as usize)
        } else {
            self.error(BuildErrorKind::ForeignValue, location);
            None
        }
    }

    /// The expression behind a value handle (`None` after recording an error).
    pub(crate) fn value(&mut self, handle: Handle, location: SourceLocation) -> Option<Arc<Expr>> {
        let index = self.check(handle, location)?;
        match self.nodes.get(index) {
            Some(Node::Value(expr)) => Some(expr.clone()),
            _ => {
                self.error(BuildErrorKind::ForeignValue, location);
                None
            }
        }
    }

    /// The condition behind a `Bool` handle (`None` after recording an error).
    pub(crate) fn boolean(
        &mut self,
        handle: Handle,
        location: SourceLocation,
    ) -> Option<Arc<BoolExpr>> {
        let index = self.check(handle, location)?;
        match self.nodes.get(index) {
            Some(Node::Bool(b)) => Some(b.clone()),
            _ => {
                self.error(BuildErrorKind::ForeignValue, location);
                None
            }
        }
    }

    fn push_node(&mut self, node: Node) -> Handle {
        let index = self.nodes.len() as u32;
        self.nodes.push(node);
        Handle {
            generation: self.generation,
            index,
        }
    }

    pub(crate) fn push_value(&mut self, expr: Arc<Expr>) -> Handle {
        self.push_node(Node::Value(expr))
    }

    pub(crate) fn push_bool(&mut self, b: Arc<BoolExpr>) -> Handle {
        self.push_node(Node::Bool(b))
    }

    /// Declare a fresh variable and return a handle reading it.
    pub(crate) fn declare(&mut self, ty: Type, location: SourceLocation) -> (VarId, Handle) {
        let var = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl { ty, location });
        let handle = self.push_value(Arc::new(Expr::Var(var)));
        (var, handle)
    }

    pub(crate) fn declare_param(&mut self, ty: Type) -> Handle {
        let location = self.location;
        let (var, handle) = self.declare(ty, location);
        self.params.push(Param { var, ty });
        handle
    }

    pub(crate) fn in_where(&self) -> bool {
        self.where_depth > 0
    }

    pub(crate) fn enter_where(&mut self) {
        self.where_depth += 1;
    }

    pub(crate) fn leave_where(&mut self) {
        self.where_depth = self.where_depth.saturating_sub(1);
    }

    pub(crate) fn record(&mut self, kind: StmtKind, location: SourceLocation) {
        if let Some(block) = self.blocks.last_mut() {
            block.stmts.push(Stmt { kind, location });
        }
    }

    pub(crate) fn push_block(&mut self) {
        self.blocks.push(Block { stmts: Vec::new() });
    }

    pub(crate) fn pop_block(&mut self) -> Vec<Stmt> {
        // The kernel body (block 0) is never popped here: only finish() takes it.
        if self.blocks.len() > 1 {
            self.blocks.pop().map(|b| b.stmts).unwrap_or_default()
        } else {
            Vec::new()
        }
    }

    /// Position of the last statement in the current block: (block depth, index).
    pub(crate) fn last_position(&self) -> Option<(usize, usize)> {
        let depth = self.blocks.len();
        let len = self.blocks.last()?.stmts.len();
        len.checked_sub(1).map(|index| (depth, index))
    }

    pub(crate) fn generation(&self) -> u32 {
        self.generation
    }

    /// The statement at `index` in the current block, if the current block is at `depth`.
    pub(crate) fn stmt_mut(&mut self, depth: usize, index: usize) -> Option<&mut Stmt> {
        if self.blocks.len() != depth {
            return None;
        }
        let block = self.blocks.last_mut()?;
        if index + 1 != block.stmts.len() {
            return None;
        }
        block.stmts.get_mut(index)
    }
}

/// Build a value node from a closure over the active builder; poison when there is none.
pub(crate) fn build_value(f: impl FnOnce(&mut Builder) -> Option<Expr>) -> Handle {
    with_builder(|b| match f(b) {
        Some(expr) => b.push_value(Arc::new(expr)),
        None => Handle::FAILED,
    })
    .unwrap_or(Handle::POISON)
}

/// Build a boolean node from a closure over the active builder; poison when there is none.
pub(crate) fn build_bool(f: impl FnOnce(&mut Builder) -> Option<BoolExpr>) -> Handle {
    with_builder(|b| match f(b) {
        Some(expr) => b.push_bool(Arc::new(expr)),
        None => Handle::FAILED,
    })
    .unwrap_or(Handle::POISON)
}
