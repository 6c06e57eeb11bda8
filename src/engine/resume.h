/*
 * resume.h — the engine's start on its journal (resume.c). Internal to src/engine.
 * Threading: runs in create, before any engine thread exists.
 */
#ifndef CUZK_ENGINE_RESUME_H
#define CUZK_ENGINE_RESUME_H

#include "cuzk/engine.h"

/* Re-creates the jobs of e's journal (e->journal open, no thread started). */
cuzk_status engine_resume(cuzk_engine *e, cuzk_error *err);

#endif
