/** The OptaPlanner solver: its planning solution, entities and score calculator (OptaPlanner stays in here). */
package io.locus.hdfs.cast.solve.optaplanner;
